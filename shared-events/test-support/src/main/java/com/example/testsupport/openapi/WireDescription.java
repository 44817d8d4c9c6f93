package com.example.testsupport.openapi;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.http.HttpHeaders;

import com.example.service.web.ProblemType;
import com.example.service.web.RequestIds;
import com.example.service.web.StandardProblem;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.BooleanSchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.HeaderParameter;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.tags.Tag;

/**
 * Makes the generated description say what every service does on the wire, whatever the controller:
 * <ul>
 * <li>every error is an RFC 9457 problem ({@value #PROBLEM} schema) under {@code application/problem+json}, and
 * the errors every endpoint can answer are listed: 400 for a body or parameters, 413 and 415 for a body, 406,
 * 500, and 503 with {@code Retry-After} (the database is away);</li>
 * <li>every operation wants a bearer token (JWT) and can answer 401 (with {@code WWW-Authenticate}) and 403;</li>
 * <li>{@code X-Request-Id} is accepted by every operation and echoed on every response;</li>
 * <li>every property of a response body is always present (the JSON mapping writes nulls), so it is required;
 * the ones that can be null say so;</li>
 * <li>the API's title, version and description.</li>
 * </ul>
 */
@SuppressWarnings("rawtypes")
final class WireDescription implements OpenApiCustomizer {

    static final String PROBLEM = "Problem";
    static final String FIELD_ERROR = "FieldError";
    static final String BEARER = "bearer";
    private static final String REF = "#/components/schemas/";

    private final Info info;

    WireDescription(Info info) {
        this.info = info;
    }

    @Override
    public void customise(OpenAPI api) {
        api.info(info);
        // In name order: the order springdoc meets the controllers in changes with the beans' registration order,
        // and the published copy must not change with it.
        if (api.getTags() != null) {
            api.setTags(new ArrayList<>(api.getTags().stream().sorted(Comparator.comparing(Tag::getName)).toList()));
        }
        Components components = api.getComponents() != null ? api.getComponents() : new Components();
        api.components(components);
        components.addSchemas(FIELD_ERROR, fieldError());
        components.addSchemas(PROBLEM, problem());
        components.addSecuritySchemes(BEARER, new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer")
                .bearerFormat("JWT").description("A token of the configured issuer: sub = the user id, scope "
                        + "contains orders (a customer) or admin (an operator), exp required"));
        api.setSecurity(new ArrayList<>(List.of(new SecurityRequirement().addList(BEARER))));
        if (api.getPaths() != null) {
            api.getPaths().values().forEach(path -> path.readOperations().forEach(WireDescription::describe));
        }
        requireEveryResponseProperty(api, components);
    }

    private static void describe(Operation operation) {
        if (operation.getParameters() == null
                || operation.getParameters().stream().noneMatch(p -> RequestIds.HEADER.equalsIgnoreCase(p.getName()))) {
            operation.addParametersItem(new HeaderParameter().name(RequestIds.HEADER).required(false)
                    .description("Identifies this network request in logs (generated when absent); echoed on the "
                            + "response. Never an idempotency key.")
                    .schema(new StringSchema().pattern("^[A-Za-z0-9._:-]{1,128}$")));
        }
        ApiResponses responses = operation.getResponses() != null ? operation.getResponses() : new ApiResponses();
        operation.responses(responses);
        boolean body = operation.getRequestBody() != null;
        boolean parameters = operation.getParameters().stream()
                .anyMatch(p -> "path".equals(p.getIn()) || "query".equals(p.getIn()));
        if (body || parameters) {
            ensure(responses, StandardProblem.VALIDATION_FAILED);
        }
        if (body) {
            ensure(responses, StandardProblem.PAYLOAD_TOO_LARGE);
            ensure(responses, StandardProblem.UNSUPPORTED_MEDIA_TYPE);
        }
        ensure(responses, StandardProblem.UNAUTHORIZED);
        ensure(responses, StandardProblem.FORBIDDEN);
        ensure(responses, StandardProblem.NOT_ACCEPTABLE);
        ensure(responses, StandardProblem.INTERNAL_ERROR);
        ensure(responses, StandardProblem.SERVICE_UNAVAILABLE);
        responses.forEach((status, response) -> {
            if (status.startsWith("4") || status.startsWith("5")) {
                response.content(new Content().addMediaType(
                        org.springframework.http.MediaType.APPLICATION_PROBLEM_JSON_VALUE,
                        new MediaType().schema(new Schema<>().$ref(REF + PROBLEM))));
            }
            if (status.equals("401")) {
                response.addHeaderObject(HttpHeaders.WWW_AUTHENTICATE, new Header()
                        .description("Bearer, with error=\"invalid_token\" when the token sent is not valid")
                        .schema(new StringSchema()));
            }
            if (status.equals("503")) {
                response.addHeaderObject(HttpHeaders.RETRY_AFTER, new Header()
                        .description("Seconds to wait before retrying the same request")
                        .schema(new IntegerSchema()));
            }
            response.addHeaderObject(RequestIds.HEADER, new Header()
                    .description("The request's X-Request-Id, or the one generated for it")
                    .schema(new StringSchema()));
        });
    }

    private static void ensure(ApiResponses responses, ProblemType problem) {
        String status = Integer.toString(problem.status().value());
        if (!responses.containsKey(status)) {
            responses.addApiResponse(status, new ApiResponse().description(problem.title()));
        }
    }

    /** Every property of every schema a response carries, transitively. */
    private static void requireEveryResponseProperty(OpenAPI api, Components components) {
        if (api.getPaths() == null || components.getSchemas() == null) {
            return;
        }
        List<Schema> pending = new ArrayList<>();
        api.getPaths().values().forEach(path -> path.readOperations().forEach(operation -> operation.getResponses()
                .values().forEach(response -> {
                    if (response.getContent() != null) {
                        response.getContent().values().forEach(media -> pending.add(media.getSchema()));
                    }
                })));
        Set<String> seen = new HashSet<>();
        while (!pending.isEmpty()) {
            Schema schema = pending.remove(pending.size() - 1);
            if (schema == null) {
                continue;
            }
            if (schema.get$ref() != null) {
                String name = schema.get$ref().substring(schema.get$ref().lastIndexOf('/') + 1);
                if (seen.add(name) && components.getSchemas().get(name) != null) {
                    pending.add(components.getSchemas().get(name));
                }
                continue;
            }
            if (schema.getItems() != null) {
                pending.add(schema.getItems());
            }
            if (schema.getProperties() != null && !schema.getProperties().isEmpty()) {
                // A problem's errors appear only for invalid input: its required list is written by hand.
                if (schema != components.getSchemas().get(PROBLEM)) {
                    schema.setRequired(new ArrayList<>(schema.getProperties().keySet()));
                }
                pending.addAll(schema.getProperties().values());
            }
        }
    }

    private static Schema<?> fieldError() {
        return new ObjectSchema()
                .description("One invalid input: its JSON name (e.g. sku_ids[0]) and what is wrong with it")
                .addProperty("field", new StringSchema().example("sku_ids[0]"))
                .addProperty("message", new StringSchema().example("must be greater than 0"))
                .required(List.of("field", "message"));
    }

    private static Schema<?> problem() {
        Map<String, Schema> properties = new LinkedHashMap<>();
        properties.put("type", new StringSchema().format("uri")
                .description("Stable identifier of the kind of error: " + ProblemType.BASE_URI + "<slug>")
                .example(ProblemType.BASE_URI + "validation-failed"));
        properties.put("title", new StringSchema().description("Summary of the kind of error")
                .example("Request is not valid"));
        properties.put("status", new IntegerSchema().description("The HTTP status").example(400));
        properties.put("detail", new StringSchema().description("What went wrong with this request")
                .example("1 invalid field(s)"));
        properties.put("instance", new StringSchema().description("The request's path").example("/orders"));
        properties.put("retryable", new BooleanSchema()
                .description("Whether the same request can succeed later").example(false));
        properties.put("errors", new ArraySchema().items(new Schema<>().$ref(REF + FIELD_ERROR))
                .description("The invalid inputs, for a request that is not valid"));
        ObjectSchema problem = new ObjectSchema();
        problem.setProperties(properties);
        return problem.description("RFC 9457 problem details, with whether a retry can succeed")
                .required(List.of("type", "title", "status", "detail", "instance", "retryable"));
    }
}
