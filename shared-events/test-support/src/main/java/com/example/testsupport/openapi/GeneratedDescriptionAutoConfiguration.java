package com.example.testsupport.openapi;

import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import com.example.service.autoconfigure.ServiceProperties;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;

import io.swagger.v3.core.jackson.ModelResolver;
import io.swagger.v3.core.util.Json;
import io.swagger.v3.oas.models.info.Info;

/**
 * In a test, the service's API description generated from its code by springdoc, at {@value #PATH}, as the wire has
 * it: property names in snake_case (the JSON mapping's, which the description's own model reader would otherwise not
 * know), problems for every error, {@code X-Request-Id}, and the API's title, version and description
 * ({@code service.api.*}). A running service serves the published copy instead ({@code ApiDescriptionAutoConfiguration}
 * of the service starter); {@link com.example.testsupport.OpenApiValidation#assertPublished} keeps the two equal.
 */
@AutoConfiguration(afterName = "com.example.service.autoconfigure.ServiceAutoConfiguration")
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnClass({ OpenApiCustomizer.class, ModelResolver.class })
public class GeneratedDescriptionAutoConfiguration {

    /** Where springdoc serves what it generates (set in {@code META-INF/service-defaults/api-description.yml}). */
    public static final String PATH = "/v3/api-docs/generated";

    /** Reads models with snake_case names, as {@code EventJson} writes them. */
    @Bean
    @ConditionalOnMissingBean
    ModelResolver snakeCaseModelResolver() {
        return new ModelResolver(Json.mapper().copy().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE));
    }

    @Bean
    OpenApiCustomizer wireDescription(ServiceProperties properties, Environment environment) {
        ServiceProperties.Api api = properties.api();
        String title = api.title() != null ? api.title() : environment.getProperty("spring.application.name", "API");
        return new WireDescription(new Info().title(title).version(api.version()).description(api.description()));
    }
}
