package com.example.service.web;

import java.util.UUID;
import java.util.regex.Pattern;

import org.slf4j.MDC;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

import io.micrometer.context.ThreadLocalAccessor;
import reactor.core.publisher.Mono;

/**
 * {@code X-Request-Id}: taken from the request (or generated), echoed on the response and put in the
 * Reactor context, from which context propagation restores it into the logging MDC on every thread
 * that works on the request. It identifies one network request for tracing and never deduplicates anything.
 */
public final class RequestIds {

    public static final String HEADER = "X-Request-Id";
    /** Key in the Reactor context and in the MDC ({@code %X{requestId}} in the log pattern). */
    public static final String KEY = "requestId";

    private static final Pattern ACCEPTABLE = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

    private RequestIds() {
    }

    /** The web filter; registered first, so even errors from other filters carry the header. */
    public static WebFilter filter() {
        return RequestIds::filter;
    }

    private static Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        String offered = exchange.getRequest().getHeaders().getFirst(HEADER);
        String requestId = offered != null && ACCEPTABLE.matcher(offered).matches() ? offered
                : UUID.randomUUID().toString();
        exchange.getResponse().getHeaders().set(HEADER, requestId);
        return chain.filter(exchange).contextWrite(context -> context.put(KEY, requestId));
    }

    /** Restores the request id into the MDC wherever Reactor runs the request's work. */
    public static final class MdcAccessor implements ThreadLocalAccessor<String> {

        @Override
        public Object key() {
            return KEY;
        }

        @Override
        public String getValue() {
            return MDC.get(KEY);
        }

        @Override
        public void setValue(String value) {
            MDC.put(KEY, value);
        }

        @Override
        public void setValue() {
            MDC.remove(KEY);
        }
    }
}
