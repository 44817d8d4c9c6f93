package com.example.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Calls endpoints with every kind of caller the contract names (no token, an expired one, one signed by another
 * key, one without an expiry, a customer, a token without scopes, an operator) and checks the answers: 401
 * problems with {@code WWW-Authenticate: Bearer} for the first four, 403 problems where the scope is missing, and
 * neither for an operator. Every answer is also checked against the service's API description.
 */
public final class AuthorizationMatrix {

    private static final String PROBLEMS = "https://example.com/problems/";
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    /** One endpoint, with a body where it takes one. */
    public record Endpoint(HttpMethod method, String path, String body) {

        public static Endpoint get(String path) {
            return new Endpoint(HttpMethod.GET, path, null);
        }

        public static Endpoint put(String path, String body) {
            return new Endpoint(HttpMethod.PUT, path, body);
        }

        public static Endpoint post(String path, String body) {
            return new Endpoint(HttpMethod.POST, path, body);
        }

        @Override
        public String toString() {
            return method + " " + path;
        }
    }

    /** The operator endpoints every service has (dead letters, parked outbox rows). */
    public static final List<Endpoint> SHARED_OPERATOR_ENDPOINTS = List.of(
            Endpoint.get("/admin/dead-letters"),
            Endpoint.post("/admin/dead-letters/no-such-queue/redrive", null),
            Endpoint.get("/admin/outbox/parked"),
            Endpoint.post("/admin/outbox/parked/5b6f0f8e-8a53-4c6e-9a34-2d1b3c9e7f10/requeue", null),
            Endpoint.post("/admin/outbox/parked/requeue", null));

    private final WebTestClient client;

    public AuthorizationMatrix(int port) {
        this.client = OpenApiValidation.client(port, null).mutate().responseTimeout(PATIENCE).build();
    }

    /** Endpoints only an operator may call: everyone else is refused with 401 or 403. */
    public void assertOperatorsOnly(List<Endpoint> endpoints) {
        List<String> failures = new ArrayList<>();
        for (Endpoint endpoint : endpoints) {
            checkWithoutAValidScopedToken(failures, endpoint);
            check(failures, endpoint, "a customer's token", TestTokens.customer(1), 403);
            int status = call(endpoint, TestTokens.admin()).getStatus().value();
            if (status == 401 || status == 403 || status >= 500) {
                failures.add(endpoint + " with an operator's token: " + status);
            }
        }
        assertThat(failures).isEmpty();
    }

    /** Endpoints anyone with a valid token may reach: without one (or with a broken one) the answer is 401. */
    public void assertTokenRequired(List<Endpoint> endpoints) {
        List<String> failures = new ArrayList<>();
        for (Endpoint endpoint : endpoints) {
            checkWithoutAValidScopedToken(failures, endpoint);
        }
        assertThat(failures).isEmpty();
    }

    /** What every protected endpoint answers: 401 without a valid token, 403 to a valid one without scopes. */
    private void checkWithoutAValidScopedToken(List<String> failures, Endpoint endpoint) {
        check(failures, endpoint, "no token", null, 401);
        check(failures, endpoint, "an expired token", TestTokens.expired(1), 401);
        check(failures, endpoint, "a token signed by another key", TestTokens.signedByAnotherKey(), 401);
        check(failures, endpoint, "a token without exp", TestTokens.withoutExpiry(), 401);
        check(failures, endpoint, "a token without scopes", TestTokens.token("1", ""), 403);
    }

    private void check(List<String> failures, Endpoint endpoint, String who, String token, int expected) {
        EntityExchangeResult<byte[]> result = call(endpoint, token);
        String body = result.getResponseBody() == null ? "" : new String(result.getResponseBody());
        String problem = PROBLEMS + (expected == 401 ? "unauthorized" : "forbidden");
        String challenge = result.getResponseHeaders().getFirst(HttpHeaders.WWW_AUTHENTICATE);
        if (result.getStatus().value() != expected) {
            failures.add(endpoint + " with " + who + ": " + result.getStatus().value() + " instead of " + expected);
        } else if (!MediaType.APPLICATION_PROBLEM_JSON.isCompatibleWith(result.getResponseHeaders().getContentType())
                || !body.contains("\"type\":\"" + problem + "\"")) {
            failures.add(endpoint + " with " + who + ": not a " + problem + " problem: " + body);
        } else if (expected == 401 && (challenge == null || !challenge.startsWith("Bearer"))) {
            failures.add(endpoint + " with " + who + ": WWW-Authenticate is " + challenge);
        } else if (expected == 401 && token != null && !challenge.contains("error=\"invalid_token\"")) {
            failures.add(endpoint + " with " + who + ": WWW-Authenticate does not say invalid_token: " + challenge);
        }
    }

    /** One call; one that gets no answer within {@link #PATIENCE} is tried once more ({@link ThreadDumps}). */
    private EntityExchangeResult<byte[]> call(Endpoint endpoint, String token) {
        return ThreadDumps.retryOnceIfUnanswered(endpoint.toString(), () -> send(endpoint, token));
    }

    private EntityExchangeResult<byte[]> send(Endpoint endpoint, String token) {
        WebTestClient.RequestBodySpec request = client.method(endpoint.method()).uri(endpoint.path());
        if (token != null) {
            request.headers(headers -> headers.setBearerAuth(token));
        }
        WebTestClient.RequestHeadersSpec<?> ready = endpoint.body() == null ? request
                : request.contentType(MediaType.APPLICATION_JSON).bodyValue(endpoint.body());
        return ready.exchange().expectBody().returnResult();
    }
}
