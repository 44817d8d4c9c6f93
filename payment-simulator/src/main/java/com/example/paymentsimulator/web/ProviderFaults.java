package com.example.paymentsimulator.web;

import java.time.Duration;

import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

import com.example.paymentsimulator.FaultInjection;
import com.example.paymentsimulator.Faults;
import com.example.paymentsimulator.security.ApiKeySecurity;
import com.example.service.web.ApiProblem;
import com.example.service.web.ProblemResponses;

import reactor.core.publisher.Mono;

/**
 * The faults that strike a {@code /charges*} request before anything is done: the latency, then the injected 503.
 * After the API key check (Spring Security's filters come first), as at a provider whose gateway answers before its
 * backend is reached.
 */
@Component
class ProviderFaults implements WebFilter {

    private final FaultInjection faults;

    ProviderFaults(FaultInjection faults) {
        this.faults = faults;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        return ApiKeySecurity.PROVIDER_API.matches(exchange).flatMap(match -> {
            if (!match.isMatch()) {
                return chain.filter(exchange);
            }
            Faults now = faults.current();
            Mono<Void> latency = now.latencyMs() == 0 ? Mono.empty()
                    : Mono.delay(Duration.ofMillis(now.latencyMs())).then();
            // Written here rather than raised: the shared handler logs every 5xx with its stack trace, and an
            // injected failure is no news (the fault was logged when it was set).
            return latency.then(Mono.defer(() -> faults.errorBefore()
                    ? ProblemResponses.write(exchange, new ApiProblem(SimulatorProblem.INJECTED_FAILURE, "Injected "
                            + "failure (error_before_percent): nothing was done; retry the same request with the same "
                            + "key."))
                    : chain.filter(exchange)));
        });
    }
}
