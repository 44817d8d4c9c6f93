package com.example.service.security;

import org.springframework.http.HttpHeaders;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.web.server.ServerAuthenticationEntryPoint;
import org.springframework.security.web.server.authorization.ServerAccessDeniedHandler;
import org.springframework.web.server.ServerWebExchange;

import com.example.service.web.ApiProblem;
import com.example.service.web.ProblemResponses;
import com.example.service.web.StandardProblem;

import reactor.core.publisher.Mono;

/**
 * Refusals of the security chain as problems: 401 with {@code WWW-Authenticate: Bearer} (RFC 6750, with
 * {@code error="invalid_token"} when a token was sent but is not valid) and 403 when the token lacks the scope.
 */
final class ProblemSecurityResponses implements ServerAuthenticationEntryPoint, ServerAccessDeniedHandler {

    @Override
    public Mono<Void> commence(ServerWebExchange exchange, AuthenticationException failure) {
        boolean invalidToken = failure instanceof OAuth2AuthenticationException;
        exchange.getResponse().getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, invalidToken
                ? "Bearer error=\"invalid_token\", error_description=\"The token is expired, malformed or not signed "
                        + "by the configured issuer\""
                : "Bearer");
        String detail = invalidToken
                ? "The bearer token is not valid: " + failure.getMessage()
                : "This endpoint needs an Authorization: Bearer <token> header.";
        return ProblemResponses.write(exchange, new ApiProblem(StandardProblem.UNAUTHORIZED, detail));
    }

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, AccessDeniedException denied) {
        return ProblemResponses.write(exchange, new ApiProblem(StandardProblem.FORBIDDEN,
                "The token's scopes do not allow this request (operator endpoints need scope admin)"));
    }
}
