package com.example.service.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPrivateKey;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.security.autoconfigure.web.reactive.ReactiveWebSecurityAutoConfiguration;
import org.springframework.boot.security.oauth2.server.resource.autoconfigure.reactive.ReactiveOAuth2ResourceServerAutoConfiguration;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.security.authentication.TestingAuthenticationToken;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.ReactiveJwtDecoder;
import org.springframework.security.web.server.SecurityWebFilterChain;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;

import io.micrometer.observation.ObservationRegistry;

/** A service is a resource server with the shared chain, and refuses to start without a token issuer. */
class ServiceSecurityAutoConfigurationTests {

    private final ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ReactiveWebSecurityAutoConfiguration.class,
                    ReactiveOAuth2ResourceServerAutoConfiguration.class, ServiceSecurityAutoConfiguration.class));

    @Test
    void aServiceWithoutATokenIssuerDoesNotStart() {
        runner.run(context -> assertThat(context).hasFailed().getFailure()
                .rootCause().hasMessageContaining("No token issuer is configured")
                .hasMessageContaining("spring.security.oauth2.resourceserver.jwt.issuer-uri"));
    }

    @Test
    void aServiceWithAPublicKeyHasTheSharedChainOnly(@TempDir Path keys) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        Path pem = Files.writeString(keys.resolve("public.pem"), "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder().encodeToString(generator.generateKeyPair().getPublic().getEncoded())
                + "\n-----END PUBLIC KEY-----\n");
        runner.withPropertyValues("spring.security.oauth2.resourceserver.jwt.public-key-location=" + pem.toUri())
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).hasSingleBean(SecurityWebFilterChain.class);
                    assertThat(context).hasBean("serviceSecurity");
                });
    }

    /**
     * Spring Security's own observations are off (a request is timed once, by {@code http.server.requests}), and a
     * request with a valid token still passes the chain's decoder.
     */
    @Test
    void securityIsNotObservedTwice(@TempDir Path keys) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair pair = generator.generateKeyPair();
        Path pem = Files.writeString(keys.resolve("public.pem"), "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder().encodeToString(pair.getPublic().getEncoded())
                + "\n-----END PUBLIC KEY-----\n");
        runner.withPropertyValues("spring.security.oauth2.resourceserver.jwt.public-key-location=" + pem.toUri())
                .withBean(ObservationRegistry.class, ObservationRegistry::create)
                .run(context -> {
                    SecurityObservationSettings observed = context.getBean(SecurityObservationSettings.class);
                    assertThat(observed.shouldObserveRequests()).isFalse();
                    assertThat(observed.shouldObserveAuthentications()).isFalse();
                    assertThat(observed.shouldObserveAuthorizations()).isFalse();

                    Jwt jwt = context.getBean(ReactiveJwtDecoder.class).decode(sign(pair)).block();
                    assertThat(jwt.getSubject()).isEqualTo("42");
                });
    }

    private static String sign(KeyPair pair) throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.RS256), new JWTClaimsSet.Builder().subject("42")
                .issuer("stack").claim("scope", "orders").expirationTime(Date.from(Instant.now().plusSeconds(60)))
                .build());
        jwt.sign(new RSASSASigner((RSAPrivateKey) pair.getPrivate()));
        return jwt.serialize();
    }

    @Test
    void aCallerMayActForThemselvesAndAnOperatorForAnyone() {
        Caller customer = Caller.of(authenticated("42", "SCOPE_orders"));
        Caller operator = Caller.of(authenticated("operator", "SCOPE_admin"));

        assertThat(customer.mayActFor(42)).isTrue();
        assertThat(customer.mayActFor(43)).isFalse();
        assertThat(customer.admin()).isFalse();
        assertThat(operator.mayActFor(43)).isTrue();
        assertThat(Caller.of(null).mayActFor(42)).isFalse();
        assertThat(Caller.of(authenticated("042", "SCOPE_orders")).mayActFor(42)).as("not the same subject").isFalse();
    }

    private static TestingAuthenticationToken authenticated(String subject, String... authorities) {
        TestingAuthenticationToken token = new TestingAuthenticationToken(subject, null,
                List.of(authorities).stream().map(SimpleGrantedAuthority::new).toList());
        token.setAuthenticated(true);
        return token;
    }
}
