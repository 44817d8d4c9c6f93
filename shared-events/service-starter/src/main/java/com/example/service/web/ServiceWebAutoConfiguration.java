package com.example.service.web;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;
import org.springframework.util.unit.DataSize;
import org.springframework.web.server.WebFilter;

/** Gives every reactive web service the shared problem responses, request ids and body-size limit. */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
public class ServiceWebAutoConfiguration {

    /** Before Spring Boot's own error handler (order -1) and before the default response-status handler (0). */
    @Bean
    @Order(-2)
    ProblemExceptionHandler problemExceptionHandler() {
        return new ProblemExceptionHandler();
    }

    @Bean
    @Order(Ordered.HIGHEST_PRECEDENCE)
    WebFilter requestIdFilter() {
        return RequestIds.filter();
    }

    @Bean
    @Order(Ordered.HIGHEST_PRECEDENCE + 1)
    BodySizeLimit bodySizeLimit(Environment environment) {
        DataSize limit = Binder.get(environment).bind("spring.http.codecs.max-in-memory-size", DataSize.class)
                .orElse(DataSize.ofKilobytes(64));
        return new BodySizeLimit(limit.toBytes());
    }
}
