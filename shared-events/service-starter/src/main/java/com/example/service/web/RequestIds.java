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
 * Reactor context. It identifies one network request for tracing and never deduplicates anything.
 *
 * <p>Context propagation is {@code limited} (Reactor's default), not {@code auto}: the request id is restored into
 * the logging MDC only where a request logs, inside {@code handle} or {@code tap} operators (which restore it from
 * the Reactor context) or through {@link #inMdc}. Restoring it around every operator on every thread cost a tenth
 * of each service's CPU in the profiles (docs/performance/levers.md).
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

    /** Runs {@code logging} with the exchange's request id in the MDC: for code that logs outside an operator. */
    public static void inMdc(ServerWebExchange exchange, Runnable logging) {
        String requestId = exchange.getResponse().getHeaders().getFirst(HEADER);
        if (requestId == null) {
            logging.run();
            return;
        }
        try (MDC.MDCCloseable ignored = MDC.putCloseable(KEY, requestId)) {
            logging.run();
        }
    }

    /** Restores the request id into the MDC where Reactor restores thread locals ({@code handle}, {@code tap}). */
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
