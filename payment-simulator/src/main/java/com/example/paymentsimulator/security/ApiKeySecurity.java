package com.example.paymentsimulator.security;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.annotation.web.reactive.EnableWebFluxSecurity;
import org.springframework.security.config.web.server.SecurityWebFiltersOrder;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.authentication.AuthenticationWebFilter;
import org.springframework.security.web.server.authentication.ServerAuthenticationEntryPointFailureHandler;
import org.springframework.security.web.server.context.NoOpServerSecurityContextRepository;
import org.springframework.security.web.server.util.matcher.ServerWebExchangeMatcher;
import org.springframework.security.web.server.util.matcher.ServerWebExchangeMatchers;

import com.example.paymentsimulator.SimulatorProperties;
import com.example.service.security.StatelessSecurity;

/**
 * The provider's API ({@link #PROVIDER_API}) wants {@code Authorization: Bearer <simulator.api-key>}; everything else
 * (the test-control endpoints {@code /faults} and {@code /ledger}, the probes, the API description) is open.
 * Stateless: no session, no cookies, no CSRF tokens, no login page.
 */
@Configuration(proxyBeanMethods = false)
@EnableWebFluxSecurity
public class ApiKeySecurity {

    /** The provider's API proper: behind the key, and where the faults apply. */
    public static final ServerWebExchangeMatcher PROVIDER_API = ServerWebExchangeMatchers.pathMatchers("/charges",
            "/charges/**");

    /** A bean, so that Spring Boot sets up no user with a generated password beside it. */
    @Bean
    ApiKeyAuthenticationManager apiKeyAuthenticationManager(SimulatorProperties properties) {
        return new ApiKeyAuthenticationManager(properties.apiKey());
    }

    @Bean
    SecurityWebFilterChain simulatorSecurity(ServerHttpSecurity http, ApiKeyAuthenticationManager keys) {
        ApiKeyRefusals refusals = new ApiKeyRefusals();
        AuthenticationWebFilter apiKey = new AuthenticationWebFilter(keys);
        apiKey.setRequiresAuthenticationMatcher(PROVIDER_API);
        apiKey.setServerAuthenticationConverter(ApiKeyAuthenticationManager::bearer);
        apiKey.setAuthenticationFailureHandler(new ServerAuthenticationEntryPointFailureHandler(refusals));
        apiKey.setSecurityContextRepository(NoOpServerSecurityContextRepository.getInstance());
        return StatelessSecurity.apply(http)
                .addFilterAt(apiKey, SecurityWebFiltersOrder.AUTHENTICATION)
                .authorizeExchange(exchanges -> exchanges.matchers(PROVIDER_API).authenticated()
                        .anyExchange().permitAll())
                .exceptionHandling(handling -> handling.authenticationEntryPoint(refusals))
                .build();
    }
}
