package com.example.service.web;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;

import com.example.events.EventJson;

import reactor.core.publisher.Mono;

/**
 * Writes an {@link ApiProblem} as the response: RFC 9457 {@code application/problem+json} with {@code type},
 * {@code title}, {@code status}, {@code detail}, {@code instance}, {@code retryable} and, for invalid input,
 * {@code errors}. The one place a problem body is made, for the exception handler and for refusals that happen
 * before a controller is reached (authentication, authorisation).
 */
public final class ProblemResponses {

    /** Seconds a client should wait before retrying after a 503. */
    static final String RETRY_AFTER_SECONDS = "1";

    private ProblemResponses() {
    }

    public static Mono<Void> write(ServerWebExchange exchange, ApiProblem problem) {
        ProblemType type = problem.problemType();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", type.type().toString());
        body.put("title", type.title());
        body.put("status", type.status().value());
        body.put("detail", problem.getMessage());
        body.put("instance", exchange.getRequest().getPath().value());
        body.put("retryable", type.retryable());
        if (!problem.errors().isEmpty()) {
            body.put("errors", problem.errors());
        }
        ServerHttpResponse response = exchange.getResponse();
        response.setStatusCode(type.status());
        HttpHeaders headers = response.getHeaders();
        headers.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        if (type == StandardProblem.SERVICE_UNAVAILABLE) {
            headers.set(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS);
        }
        DataBuffer buffer = response.bufferFactory().wrap(EventJson.mapper().writeValueAsBytes(body));
        return response.writeWith(Mono.just(buffer));
    }
}
