package com.example.service.web;

import org.springframework.web.server.ContentTooLargeException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

import reactor.core.publisher.Mono;

/**
 * Refuses a request whose declared {@code Content-Length} is over the limit before reading it. A body
 * without a declared length is caught by the codecs' in-memory limit
 * ({@code spring.http.codecs.max-in-memory-size}) set to the same value.
 */
final class BodySizeLimit implements WebFilter {

    private final long maxBytes;

    BodySizeLimit(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        long length = exchange.getRequest().getHeaders().getContentLength();
        if (length > maxBytes) {
            return Mono.error(new ContentTooLargeException(null));
        }
        return chain.filter(exchange);
    }

}
