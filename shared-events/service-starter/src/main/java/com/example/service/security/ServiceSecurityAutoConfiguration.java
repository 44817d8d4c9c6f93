package com.example.service.security;

import java.time.Instant;
import java.util.Objects;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.security.oauth2.server.resource.autoconfigure.reactive.ReactiveOAuth2ResourceServerAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.security.config.annotation.web.reactive.EnableWebFluxSecurity;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.oauth2.core.OAuth2TokenValidator;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtClaimNames;
import org.springframework.security.oauth2.jwt.JwtClaimValidator;
import org.springframework.security.oauth2.jwt.ReactiveJwtDecoder;
import org.springframework.security.web.server.SecurityWebFilterChain;

/**
 * Every service is an OAuth2 resource server: a request needs {@code Authorization: Bearer <JWT>} signed by the
 * issuer that Spring Boot's standard properties name ({@code spring.security.oauth2.resourceserver.jwt.issuer-uri},
 * {@code jwk-set-uri} or {@code public-key-location}), except the probes ({@code /livez}, {@code /readyz}) and the
 * API description ({@code /v3/api-docs}), and the actuator on its own management port (protected by the address it
 * listens on, the loopback interface by default). The paths a service opens to customers come from its {@link AccessRules};
 * everything else wants scope {@code admin}. Stateless: no session, no cookies, no CSRF tokens, no login page.
 * A service without a configured issuer does not start.
 */
@AutoConfiguration(before = ReactiveOAuth2ResourceServerAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@EnableWebFluxSecurity
public class ServiceSecurityAutoConfiguration {

    /**
     * Without authentication: what probes, load balancers and client generators need (below {@code /v3/api-docs/}, only
     * the tests serve anything: the description generated from the code).
     */
    static final String[] PUBLIC_PATHS = { "/livez", "/readyz", "/v3/api-docs", "/v3/api-docs/**" };

    /**
     * Spring Security's own observations (a timer per phase of the filter chain, per authentication and per
     * authorization, on every request) are off: {@code http.server.requests} already times each request, and their
     * machinery alone took about 3% of order-service's CPU samples under {@code POST /orders}. A service that wants
     * them declares its own {@link SecurityObservationSettings}.
     */
    @Bean
    @ConditionalOnMissingBean
    SecurityObservationSettings securityObservationSettings() {
        return SecurityObservationSettings.noObservations();
    }

    /** A token without an expiry would be valid for ever: {@code exp} is required. */
    @Bean
    OAuth2TokenValidator<Jwt> expiryRequired() {
        return new JwtClaimValidator<Instant>(JwtClaimNames.EXP, Objects::nonNull);
    }

    @Bean
    SecurityWebFilterChain serviceSecurity(ServerHttpSecurity http, ObjectProvider<ReactiveJwtDecoder> decoder,
            ObjectProvider<AccessRules> rules, Environment environment) {
        if (decoder.getIfAvailable() == null) {
            throw new IllegalStateException("No token issuer is configured, and every endpoint needs a bearer token: "
                    + "set spring.security.oauth2.resourceserver.jwt.issuer-uri, jwk-set-uri or public-key-location "
                    + "(env SPRING_SECURITY_OAUTH2_RESOURCESERVER_JWT_...); ./stack and compose use a development key");
        }
        ProblemSecurityResponses problems = new ProblemSecurityResponses();
        return StatelessSecurity.apply(http)
                .authorizeExchange(exchanges -> {
                    exchanges.pathMatchers(PUBLIC_PATHS).permitAll();
                    exchanges.matchers(new ManagementPort(environment)).permitAll();
                    rules.orderedStream().forEach(rule -> rule.authorize(exchanges));
                    exchanges.anyExchange().hasAuthority(Caller.ADMIN);
                })
                .oauth2ResourceServer(server -> server.jwt(jwt -> jwt.jwtDecoder(decoder.getObject()))
                        .authenticationEntryPoint(problems).accessDeniedHandler(problems))
                .exceptionHandling(handling -> handling.authenticationEntryPoint(problems).accessDeniedHandler(problems))
                .build();
    }
}
