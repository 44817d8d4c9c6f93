package com.example.service.web;

import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.MethodParameter;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.validation.FieldError;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.support.WebExchangeBindException;
import org.springframework.web.server.ContentTooLargeException;
import org.springframework.web.server.MethodNotAllowedException;
import org.springframework.web.server.MissingRequestValueException;
import org.springframework.web.server.NotAcceptableStatusException;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.ServerWebInputException;
import org.springframework.web.server.UnsupportedMediaTypeStatusException;
import org.springframework.web.server.WebExceptionHandler;

import com.example.service.failure.Failures;

import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.StreamReadException;

/**
 * Renders every error as RFC 9457 {@code application/problem+json} with a stable {@code type}, a
 * {@code retryable} flag and, for invalid input, the list of field errors. Runs before Spring
 * Boot's default handler, so no client ever sees a stack trace or a bare 500. A database that
 * cannot be reached is a 503 with {@code Retry-After}: the request did not happen and may be retried.
 */
class ProblemExceptionHandler implements WebExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemExceptionHandler.class);

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, Throwable error) {
        ServerHttpResponse response = exchange.getResponse();
        if (response.isCommitted()) {
            return Mono.error(error);
        }
        ApiProblem problem = toProblem(error);
        ProblemType type = problem.problemType();
        RequestIds.inMdc(exchange, () -> {
            if (type.status().is5xxServerError()) {
                log.warn("{} {} failed with {}: {}", exchange.getRequest().getMethod(),
                        exchange.getRequest().getPath(), type.status().value(), error.toString(), error);
            } else {
                log.debug("{} {} refused with {}: {}", exchange.getRequest().getMethod(),
                        exchange.getRequest().getPath(), type.status().value(), problem.getMessage());
            }
        });
        if (error instanceof MethodNotAllowedException notAllowed) {
            response.getHeaders().setAllow(notAllowed.getSupportedMethods());
        }
        return ProblemResponses.write(exchange, problem);
    }

    static ApiProblem toProblem(Throwable error) {
        if (error instanceof ApiProblem problem) {
            return problem;
        }
        if (Failures.isInfrastructure(error)) {
            return new ApiProblem(StandardProblem.SERVICE_UNAVAILABLE,
                    "The database is not reachable right now; nothing was changed. Retry the same request.");
        }
        if (error instanceof WebExchangeBindException bind) {
            List<ApiProblem.FieldError> errors = new ArrayList<>();
            for (FieldError field : bind.getFieldErrors()) {
                errors.add(new ApiProblem.FieldError(JsonNames.of(field.getField()), field.getDefaultMessage()));
            }
            bind.getGlobalErrors().forEach(global -> errors.add(new ApiProblem.FieldError(
                    JsonNames.of(global.getObjectName()), global.getDefaultMessage())));
            return new ApiProblem(StandardProblem.VALIDATION_FAILED, errors.size() + " invalid field(s)", errors);
        }
        if (error instanceof ContentTooLargeException
                || Failures.find(error, DataBufferLimitException.class).isPresent()) {
            return new ApiProblem(StandardProblem.PAYLOAD_TOO_LARGE, "The request body is larger than allowed.");
        }
        if (error instanceof UnsupportedMediaTypeStatusException unsupported) {
            return new ApiProblem(StandardProblem.UNSUPPORTED_MEDIA_TYPE, "Content type "
                    + unsupported.getContentType() + " is not supported; send " + unsupported.getSupportedMediaTypes());
        }
        if (error instanceof MissingRequestValueException missing) {
            return ApiProblem.invalid(missing.getName(), "is required");
        }
        if (error instanceof ServerWebInputException input) {
            return fromUnreadableInput(input);
        }
        if (error instanceof MethodNotAllowedException) {
            return new ApiProblem(StandardProblem.METHOD_NOT_ALLOWED, error.getMessage());
        }
        if (error instanceof NotAcceptableStatusException) {
            return new ApiProblem(StandardProblem.NOT_ACCEPTABLE, "Only JSON responses are available.");
        }
        if (error instanceof ResponseStatusException status) {
            return fromStatus(status.getStatusCode(), status.getReason());
        }
        return new ApiProblem(StandardProblem.INTERNAL_ERROR, "The request failed unexpectedly.");
    }

    private static ApiProblem fromUnreadableInput(ServerWebInputException input) {
        String parameter = parameterName(input.getMethodParameter());
        if (parameter != null) {
            return ApiProblem.invalid(parameter, "has the wrong type or format");
        }
        JacksonException json = Failures.find(input, JacksonException.class).orElse(null);
        if (json != null && !(json instanceof StreamReadException) && !json.getPath().isEmpty()) {
            return ApiProblem.invalid(pathOf(json), "has the wrong type or format");
        }
        // The parser's own message names its internals (classes, token positions): the client learns nothing from it.
        return new ApiProblem(StandardProblem.MALFORMED_REQUEST, "The request body is not valid JSON.",
                List.of(new ApiProblem.FieldError("body", "is not valid JSON")));
    }

    /** The name a client used for a query or path parameter, or null when the input was the body. */
    private static String parameterName(MethodParameter parameter) {
        if (parameter == null || parameter.hasParameterAnnotation(RequestBody.class)) {
            return null;
        }
        RequestParam query = parameter.getParameterAnnotation(RequestParam.class);
        if (query != null) {
            return query.name().isEmpty() ? query.value() : query.name();
        }
        PathVariable path = parameter.getParameterAnnotation(PathVariable.class);
        if (path != null && !(path.name().isEmpty() && path.value().isEmpty())) {
            return path.name().isEmpty() ? path.value() : path.name();
        }
        String name = parameter.getParameterName();
        return name == null ? null : JsonNames.of(name);
    }

    private static String pathOf(JacksonException json) {
        StringBuilder path = new StringBuilder();
        for (JacksonException.Reference reference : json.getPath()) {
            if (reference.getPropertyName() != null) {
                if (!path.isEmpty()) {
                    path.append('.');
                }
                path.append(reference.getPropertyName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    private static ApiProblem fromStatus(HttpStatusCode status, String reason) {
        for (ProblemType type : StandardProblem.ALL) {
            if (type.status().value() == status.value()) {
                return new ApiProblem(type, reason != null ? reason : type.title());
            }
        }
        return new ApiProblem(status.is4xxClientError() ? StandardProblem.VALIDATION_FAILED : StandardProblem.INTERNAL_ERROR,
                reason != null ? reason : HttpStatus.valueOf(status.value()).getReasonPhrase());
    }
}
