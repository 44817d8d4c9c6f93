package com.example.service.openapi;

import java.io.IOException;
import java.io.UncheckedIOException;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;
import org.springframework.core.io.Resource;
import org.springframework.core.io.ResourceLoader;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * Serves the service's published API description at {@value #PATH}, without a token: the file the build copies from
 * {@code docs/openapi/<spring.application.name>.json} into the jar ({@value #LOCATION}), byte for byte. The
 * description is generated from the code only in the tests, which require the generated one to equal this file, so
 * a running service loads none of the generator's classes (springdoc, swagger-core and the Jackson 2 they need).
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@Conditional(ApiDescriptionAutoConfiguration.PublishedDescription.class)
public class ApiDescriptionAutoConfiguration {

    public static final String PATH = "/v3/api-docs";
    static final String LOCATION = "classpath:META-INF/openapi/";

    @Bean
    RouterFunction<ServerResponse> publishedApiDescription(ResourceLoader resources, Environment environment) {
        byte[] description = read(file(resources, environment));
        return RouterFunctions.route(RequestPredicates.GET(PATH),
                request -> ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(description));
    }

    static Resource file(ResourceLoader resources, Environment environment) {
        return resources.getResource(LOCATION + environment.getProperty("spring.application.name", "application")
                + ".json");
    }

    private static byte[] read(Resource file) {
        try {
            return file.getContentAsByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the published API description " + file, e);
        }
    }

    /** Only a service whose jar holds a published description serves one. */
    static class PublishedDescription extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            Resource file = file(context.getResourceLoader(), context.getEnvironment());
            return file.exists() ? ConditionOutcome.match("published API description " + file)
                    : ConditionOutcome.noMatch("no published API description at " + file);
        }
    }
}
