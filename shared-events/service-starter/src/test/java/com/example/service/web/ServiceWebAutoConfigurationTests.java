package com.example.service.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.web.server.WebFilter;

/** The web mechanics exist in a reactive web application, and only there. */
class ServiceWebAutoConfigurationTests {

    @Test
    void aReactiveWebApplicationGetsProblemsRequestIdsAndTheBodyLimit() {
        new ReactiveWebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(ServiceWebAutoConfiguration.class))
                .withPropertyValues("spring.http.codecs.max-in-memory-size=1KB")
                .run(context -> {
                    assertThat(context).hasSingleBean(ProblemExceptionHandler.class);
                    assertThat(context).hasSingleBean(BodySizeLimit.class);
                    assertThat(context.getBeansOfType(WebFilter.class)).containsKey("requestIdFilter");
                });
    }

    @Test
    void anApplicationWithoutAReactiveWebServerGetsNone() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(ServiceWebAutoConfiguration.class))
                .run(context -> {
                    assertThat(context).doesNotHaveBean(ProblemExceptionHandler.class);
                    assertThat(context).doesNotHaveBean(WebFilter.class);
                });
    }
}
