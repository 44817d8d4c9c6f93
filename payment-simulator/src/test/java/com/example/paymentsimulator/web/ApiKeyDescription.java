package com.example.paymentsimulator.web;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springdoc.core.customizers.OpenApiCustomizer;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;

/**
 * Corrects what the service starter's description says about security, which is our services' (every operation
 * wants a JWT and may answer 401 and 403): here only the provider's API ({@code /charges*}) wants a key, the
 * simulator's own, and it answers 401 without it; nothing answers 403.
 */
final class ApiKeyDescription implements OpenApiCustomizer {

    static final String API_KEY = "api_key";

    @Override
    public void customise(OpenAPI api) {
        Map<String, SecurityScheme> schemes = new LinkedHashMap<>();
        schemes.put(API_KEY, new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer")
                .description("The simulator's own secret API key (simulator.api-key), as a real provider has one; "
                        + "not a JWT"));
        if (api.getComponents() == null) {
            api.components(new Components());
        }
        api.getComponents().setSecuritySchemes(schemes);
        api.setSecurity(null);
        if (api.getPaths() == null) {
            return;
        }
        api.getPaths().forEach((path, item) -> item.readOperations().forEach(operation -> {
            operation.getResponses().remove("403");
            if (path.equals("/charges") || path.startsWith("/charges/")) {
                operation.setSecurity(new ArrayList<>(List.of(new SecurityRequirement().addList(API_KEY))));
            } else {
                operation.getResponses().remove("401");
            }
        }));
    }
}
