package com.example.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPrivateKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.UUID;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;

/**
 * The tests' token issuer: an RSA key pair made once per JVM, its public key in a file the services under test
 * are pointed at ({@link #PROPERTY} / {@link #ENVIRONMENT}), and bearer tokens signed with it, shaped like the
 * contract's (a decimal {@code sub}, {@code scope} {@code orders} or {@code admin}, {@code exp}). Also the broken
 * tokens a service must refuse: expired, signed by another key, without an expiry.
 */
public final class TestTokens {

    /** The Spring Boot property that points a service at the public key. */
    public static final String PROPERTY = "spring.security.oauth2.resourceserver.jwt.public-key-location";
    /** The same, as an environment variable (for services started as processes or containers). */
    public static final String ENVIRONMENT = "SPRING_SECURITY_OAUTH2_RESOURCESERVER_JWT_PUBLIC_KEY_LOCATION";

    private static final Duration LIFETIME = Duration.ofHours(1);
    private static final KeyPair ISSUER = generate();

    /**
     * The tokens' {@code iss}: a URL, as an OpenID provider's is (Spring Security reads the claim as a URL first; a
     * plain name would cost the services an exception per request). {@code .invalid} never resolves, nothing fetches it.
     */
    private static final String ISSUER_URL = "https://test-issuer.invalid";
    private static final KeyPair STRANGER = generate();
    private static final Path PUBLIC_KEY = write(ISSUER);

    private TestTokens() {
    }

    /** {@code file:...} of the issuer's public key (PEM), for {@link #PROPERTY}. */
    public static String publicKeyLocation() {
        return PUBLIC_KEY.toUri().toString();
    }

    /** The issuer's public key file (PEM), e.g. to copy into a container. */
    public static Path publicKeyFile() {
        return PUBLIC_KEY;
    }

    /** An operator's token (scope {@code admin}). */
    public static String admin() {
        return sign(ISSUER, "operator", "admin", Instant.now().plus(LIFETIME));
    }

    /** A customer's token for the given user (scope {@code orders}). */
    public static String customer(long userId) {
        return sign(ISSUER, Long.toString(userId), "orders", Instant.now().plus(LIFETIME));
    }

    /** A valid token with the given subject and space-separated scopes. */
    public static String token(String subject, String scopes) {
        return sign(ISSUER, subject, scopes, Instant.now().plus(LIFETIME));
    }

    /** A customer's token that expired ten minutes ago (beyond any clock skew a validator allows). */
    public static String expired(long userId) {
        return sign(ISSUER, Long.toString(userId), "orders admin", Instant.now().minus(Duration.ofMinutes(10)));
    }

    /** An operator's token signed by a key the services do not know. */
    public static String signedByAnotherKey() {
        return sign(STRANGER, "operator", "admin", Instant.now().plus(LIFETIME));
    }

    /** An operator's token without {@code exp}: it would never expire. */
    public static String withoutExpiry() {
        return sign(ISSUER, "operator", "admin", null);
    }

    private static String sign(KeyPair key, String subject, String scopes, Instant expiry) {
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().subject(subject).claim("scope", scopes)
                .issuer(ISSUER_URL).jwtID(UUID.randomUUID().toString()).issueTime(new Date());
        if (expiry != null) {
            claims.expirationTime(Date.from(expiry));
        }
        SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.RS256), claims.build());
        try {
            jwt.sign(new RSASSASigner((RSAPrivateKey) key.getPrivate()));
        } catch (JOSEException e) {
            throw new IllegalStateException("could not sign a test token", e);
        }
        return jwt.serialize();
    }

    private static KeyPair generate() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Path write(KeyPair key) {
        String pem = "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(key.getPublic().getEncoded())
                + "\n-----END PUBLIC KEY-----\n";
        try {
            Path file = Files.createTempFile("test-issuer-", ".pem");
            Files.writeString(file, pem);
            file.toFile().setReadable(true, false);
            file.toFile().deleteOnExit();
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the test issuer's public key", e);
        }
    }
}
