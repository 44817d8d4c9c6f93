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
    /** The management port once both servers have started and it is not the API's, else null: asked per request. */
    private volatile Integer ownPort;

    ManagementPort(Environment environment) {
        this.environment = environment;
    }

    @Override
    public Mono<MatchResult> matches(ServerWebExchange exchange) {
        Integer management = ownPort();
        InetSocketAddress local = exchange.getRequest().getLocalAddress();
        boolean matches = management != null && local != null && local.getPort() == management;
        return matches ? MatchResult.match() : MatchResult.notMatch();
    }

    /** The ports do not change once the servers listen: read them until both are known, then keep the answer. */
    private Integer ownPort() {
        Integer known = ownPort;
        if (known != null) {
            return known;
        }
        Integer management = environment.getProperty("local.management.port", Integer.class);
        Integer server = environment.getProperty("local.server.port", Integer.class);
        if (management == null || server == null || management.equals(server)) {
            return null;
        }
        ownPort = management;
        return management;
    }
}
