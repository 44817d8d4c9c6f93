package com.example.paymentsimulator.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

import org.springframework.http.HttpHeaders;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.ReactiveAuthenticationManager;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.web.server.ServerWebExchange;

import reactor.core.publisher.Mono;

/**
 * Accepts a request whose bearer token is the simulator's API key. The keys are compared as SHA-256 digests with
 * {@link MessageDigest#isEqual}: in constant time, and without telling the key's length either.
 */
final class ApiKeyAuthenticationManager implements ReactiveAuthenticationManager {

    /** The name the caller is known by: a provider's API key stands for one account, here the only one. */
    static final String CALLER = "api-key";
    private static final String BEARER = "bearer ";

    private final byte[] expected;

    ApiKeyAuthenticationManager(String apiKey) {
        this.expected = digest(apiKey);
    }

    /** The key a request offers ({@code Authorization: Bearer <key>}); none without such a header. */
    static Mono<Authentication> bearer(ServerWebExchange exchange) {
        String authorization = exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION);
        if (authorization == null || authorization.length() <= BEARER.length()
                || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return Mono.empty();
        }
        String key = authorization.substring(BEARER.length()).strip();
        return Mono.just(UsernamePasswordAuthenticationToken.unauthenticated(CALLER, key));
    }

    @Override
    public Mono<Authentication> authenticate(Authentication offered) {
        Object key = offered.getCredentials();
        if (key instanceof String text && MessageDigest.isEqual(digest(text), expected)) {
            return Mono.just(UsernamePasswordAuthenticationToken.authenticated(CALLER, null, List.of()));
        }
        return Mono.error(new BadCredentialsException("not the simulator's API key"));
    }

    private static byte[] digest(String key) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
