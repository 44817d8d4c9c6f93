package com.example.service.security;

import org.springframework.security.config.web.server.ServerHttpSecurity;

/**
 * The paths a service opens to callers other than operators. The shared chain first lets the probes and the API
 * description through, then applies every {@code AccessRules} bean, then wants scope {@code admin} for everything
 * else: a service that declares none is for operators only.
 */
@FunctionalInterface
public interface AccessRules {

    void authorize(ServerHttpSecurity.AuthorizeExchangeSpec exchanges);
}
