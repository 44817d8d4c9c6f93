package com.example.paymentsimulator.web;

import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;

import com.example.paymentsimulator.FaultInjection;
import com.example.paymentsimulator.SimulatorProperties;
import com.example.service.web.RequestIds;

import reactor.core.publisher.Mono;
import reactor.netty.Connection;

/**
 * The unknown outcome ({@code timeout_after_charge_percent}): the charge or refund is made and committed, and then the
 * caller hears nothing. The answer is held for {@code simulator.hold-after-charge}, longer than any caller waits, and
 * then the connection is closed without a response, as a provider that crashed after committing would. A caller that
 * gives up first closes the connection itself, which cancels the hold.
 */
@Component
class UnknownOutcome {

    private static final Logger log = LoggerFactory.getLogger(UnknownOutcome.class);

    private final FaultInjection faults;
    private final Duration hold;

    UnknownOutcome(FaultInjection faults, SimulatorProperties properties) {
        this.faults = faults;
        this.hold = properties.holdAfterCharge();
    }

    /** The answer, or, when the dice say so, never an answer. Called only after the effect has committed. */
    <T> Mono<T> answerOrWithhold(ServerWebExchange exchange, T answer) {
        if (!faults.timeoutAfterCharge()) {
            return Mono.just(answer);
        }
        RequestIds.inMdc(exchange, () -> log.info("{} {} is done and committed; withholding the answer for {}, "
                + "then dropping the connection (timeout_after_charge_percent)", exchange.getRequest().getMethod(),
                exchange.getRequest().getPath(), hold));
        return Mono.delay(hold).doOnNext(held -> drop(exchange)).then(Mono.never());
    }

    /**
     * Closes the request's connection without writing anything. Reactor Netty then cancels the request's handling,
     * and the never-ending answer with it.
     */
    private static void drop(ServerWebExchange exchange) {
        Object response = ServerHttpResponseDecorator.getNativeResponse(exchange.getResponse());
        if (response instanceof Connection connection) {
            connection.channel().close();
        }
    }
}
