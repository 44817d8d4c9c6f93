package com.example.paymentsimulator.web;

import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

import com.example.testsupport.openapi.GeneratedDescriptionAutoConfiguration;

/**
 * Registers {@link ApiKeyDescription} after the generated description's own customizer, in the tests, where the
 * description is generated from the code and compared with the published one the simulator serves. springdoc
 * applies its customizers in the order their beans were registered, so this is an auto-configuration (listed in
 * META-INF/spring/...AutoConfiguration.imports) ordered after test-support's, not an application bean, which would be
 * registered, and applied, first.
 */
@AutoConfiguration(after = GeneratedDescriptionAutoConfiguration.class)
@ConditionalOnClass(OpenApiCustomizer.class)
public class GeneratedDescriptionCustomization {

    @Bean
    OpenApiCustomizer apiKeyDescription() {
        return new ApiKeyDescription();
    }
}
