package com.example.service.security;

import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.context.ReactiveSecurityContextHolder;
import org.springframework.security.core.context.SecurityContext;

import reactor.core.publisher.Mono;

/**
 * Whose token a request carries: its subject ({@code sub}, a user id for customers) and whether it is an
 * operator's (scope {@code admin}). Controllers ask it what the caller may see and do.
 *
 * @param subject the token's {@code sub}; null for a request without authentication
 * @param admin   whether the token has scope {@code admin}
 */
public record Caller(String subject, boolean admin) {

    /** The authority Spring Security gives a token whose {@code scope} claim contains {@code admin}. */
    public static final String ADMIN = "SCOPE_admin";
    /** The authority of a customer's token ({@code scope} contains {@code orders}). */
    public static final String CUSTOMER = "SCOPE_orders";

    private static final Caller NOBODY = new Caller(null, false);

    /** The caller of the request being handled (nobody, outside a request or without authentication). */
    public static Mono<Caller> current() {
        return ReactiveSecurityContextHolder.getContext().map(SecurityContext::getAuthentication).map(Caller::of)
                .defaultIfEmpty(NOBODY);
    }

    static Caller of(Authentication authentication) {
        if (authentication == null || !authentication.isAuthenticated()) {
            return NOBODY;
        }
        boolean admin = authentication.getAuthorities().stream().map(GrantedAuthority::getAuthority)
                .anyMatch(ADMIN::equals);
        return new Caller(authentication.getName(), admin);
    }

    /** Whether this caller may act for, and see the data of, the given user: that user, or an operator. */
    public boolean mayActFor(long userId) {
        return admin || Long.toString(userId).equals(subject);
    }
}
