package com.example.paymentsimulator.web;

import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

import com.example.service.openapi.OpenApiAutoConfiguration;

/**
 * Registers {@link ApiKeyDescription} after the starter's description. springdoc applies its customizers in the
 * order their beans were registered, so this is an auto-configuration (listed in
 * META-INF/spring/...AutoConfiguration.imports) ordered after the starter's, not an application bean, which would be
 * registered, and applied, first.
 */
@AutoConfiguration(after = OpenApiAutoConfiguration.class)
@ConditionalOnClass(OpenApiCustomizer.class)
public class ApiDescriptionAutoConfiguration {

    @Bean
    OpenApiCustomizer apiKeyDescription() {
        return new ApiKeyDescription();
    }
}
