package com.example.paymentsimulator.security;

import org.springframework.http.HttpHeaders;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.server.ServerAuthenticationEntryPoint;
import org.springframework.web.server.ServerWebExchange;

import com.example.service.web.ApiProblem;
import com.example.service.web.ProblemResponses;
import com.example.service.web.StandardProblem;

import reactor.core.publisher.Mono;

/**
 * A refused request as a problem: 401 with {@code WWW-Authenticate: Bearer} (RFC 6750), with
 * {@code error="invalid_token"} when a key was sent but is not the simulator's.
 */
final class ApiKeyRefusals implements ServerAuthenticationEntryPoint {

    @Override
    public Mono<Void> commence(ServerWebExchange exchange, AuthenticationException failure) {
        boolean wrongKey = failure instanceof BadCredentialsException;
        exchange.getResponse().getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, wrongKey
                ? "Bearer error=\"invalid_token\", error_description=\"Not the simulator's API key\""
                : "Bearer");
        String detail = wrongKey ? "The bearer token is not the simulator's API key."
                : "This endpoint needs an Authorization: Bearer <the simulator's API key> header.";
        return ProblemResponses.write(exchange, new ApiProblem(StandardProblem.UNAUTHORIZED, detail));
    }
}
