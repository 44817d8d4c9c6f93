package com.example.service.security;

import java.net.InetSocketAddress;

import org.springframework.core.env.Environment;
import org.springframework.security.web.server.util.matcher.ServerWebExchangeMatcher;
import org.springframework.web.server.ServerWebExchange;

import reactor.core.publisher.Mono;

/**
 * Matches requests that arrived on the actuator's own port ({@code management.server.port}), when it is not the
 * API's. That port is protected by where it listens (the loopback interface unless {@code MANAGEMENT_SERVER_ADDRESS}
 * says otherwise), not by tokens: scrapers and probes on the host reach it as they are.
 */
final class ManagementPort implements ServerWebExchangeMatcher {

    private final Environment environment;

    ManagementPort(Environment environment) {
        this.environment = environment;
    }

    @Override
    public Mono<MatchResult> matches(ServerWebExchange exchange) {
        Integer management = environment.getProperty("local.management.port", Integer.class);
        Integer server = environment.getProperty("local.server.port", Integer.class);
        InetSocketAddress local = exchange.getRequest().getLocalAddress();
        boolean matches = management != null && !management.equals(server) && local != null
                && local.getPort() == management;
        return matches ? MatchResult.match() : MatchResult.notMatch();
    }
}
