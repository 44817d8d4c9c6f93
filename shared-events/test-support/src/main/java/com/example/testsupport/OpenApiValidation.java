package com.example.testsupport;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import org.reactivestreams.Publisher;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.client.reactive.ClientHttpRequestDecorator;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.ExchangeFunction;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.model.SimpleRequest;
import com.atlassian.oai.validator.model.SimpleResponse;
import com.atlassian.oai.validator.report.LevelResolver;
import com.atlassian.oai.validator.report.ValidationReport;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Keeps a service's published API description honest: a {@link WebTestClient} whose every exchange is checked
 * against the description the service itself serves at {@value #API_DOCS}. Every response must be one the
 * description allows (status, content type, body schema, headers); a request the service accepted (2xx) must be
 * one the description allows too, so a client generated from it would send the same. Requests that are invalid
 * on purpose are still sent, and only their answers are checked. Exchanges on paths the description does not
 * have (unknown routes, the actuator) are not judged.
 */
public final class OpenApiValidation {

    public static final String API_DOCS = "/v3/api-docs";

    private static final Map<String, OpenApiInteractionValidator> VALIDATORS = new ConcurrentHashMap<>();
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final LevelResolver LEVELS = LevelResolver.create()
            .withLevel("validation.request.path.missing", ValidationReport.Level.IGNORE)
            .withLevel("validation.request.operation.notAllowed", ValidationReport.Level.IGNORE)
            .withLevel("validation.response.path.missing", ValidationReport.Level.IGNORE)
            .withLevel("validation.response.operation.notAllowed", ValidationReport.Level.IGNORE)
            .build();

    private OpenApiValidation() {
    }

    /**
     * A client of the service on {@code localhost:port} that checks every exchange against its description and
     * sends an operator's token ({@link TestTokens#admin()}) unless a request sets its own {@code Authorization}.
     */
    public static WebTestClient client(int port) {
        return client(port, TestTokens.admin());
    }

    /** The same, sending the given bearer token by default, or none when it is null. */
    public static WebTestClient client(int port, String token) {
        String base = "http://localhost:" + port;
        return client(base, VALIDATORS.computeIfAbsent(base, url -> validator(fetch(url + API_DOCS))), token);
    }

    /** An operator's client that checks every exchange against the given description instead, e.g. a broken copy. */
    public static WebTestClient clientFor(int port, String description) {
        return client("http://localhost:" + port, validator(description), TestTokens.admin());
    }

    private static WebTestClient client(String base, OpenApiInteractionValidator validator, String token) {
        WebTestClient.Builder builder = WebTestClient.bindToServer().baseUrl(base)
                .responseTimeout(Duration.ofSeconds(30)).filter(filter(validator));
        if (token != null) {
            builder.defaultHeader(HttpHeaders.AUTHORIZATION, "Bearer " + token);
        }
        return builder.build();
    }

    /** A validator for a description given as JSON, e.g. a deliberately broken copy of a service's. */
    public static OpenApiInteractionValidator validator(String description) {
        return OpenApiInteractionValidator.createForInlineApiSpecification(description).withLevelResolver(LEVELS)
                .build();
    }

    /**
     * Compares the description the service serves with the one published in the repository ({@code docs/openapi/}),
     * from which clients are generated; {@code -Dopenapi.write=true} writes the served one there instead. The
     * {@code servers} entry (this test's random port) is not part of the comparison.
     */
    public static void assertPublished(int port, Path published) throws IOException {
        ObjectNode served = (ObjectNode) JSON.readTree(fetch("http://localhost:" + port + API_DOCS));
        served.remove("servers");
        if (Boolean.getBoolean("openapi.write")) {
            Files.createDirectories(published.getParent());
            Files.writeString(published, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(served) + "\n");
        }
        if (!Files.exists(published)) {
            throw new AssertionError(published + " does not exist: write it with -Dopenapi.write=true");
        }
        JsonNode committed = JSON.readTree(Files.readString(published));
        if (!committed.equals(served)) {
            throw new AssertionError(published + " is not the description the service serves at " + API_DOCS
                    + ": after changing the API, write it again with -Dopenapi.write=true and commit it");
        }
    }

    /** The description a service serves. */
    public static String fetch(String url) {
        try {
            HttpResponse<String> response = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                    .send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build(),
                            HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(url + " answered " + response.statusCode() + ": " + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new IllegalStateException("could not read the API description at " + url, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading " + url, e);
        }
    }

    /**
     * What the validator finds wrong with one exchange: the response always, the request when the service
     * accepted it. Empty when the exchange matches the description.
     */
    public static List<String> problems(OpenApiInteractionValidator validator, Exchange exchange) {
        ValidationReport report = validator.validateResponse(exchange.path(), exchange.method(), exchange.response());
        if (exchange.status() / 100 == 2) {
            report = report.merge(validator.validateRequest(exchange.request()));
        }
        return report.getMessages().stream()
                .filter(message -> message.getLevel() == ValidationReport.Level.ERROR)
                .map(message -> message.getKey() + ": " + message.getMessage())
                .toList();
    }

    /** One request and its response, as they went over the wire. */
    public record Exchange(Request.Method method, String path, SimpleRequest request, int status,
            SimpleResponse response) {
    }

    private static ExchangeFilterFunction filter(OpenApiInteractionValidator validator) {
        return (request, next) -> exchange(request, next).map(recorded -> {
            List<String> problems = problems(validator, recorded.exchange());
            if (!problems.isEmpty()) {
                throw new AssertionError(recorded.exchange().method() + " " + recorded.exchange().path() + " -> "
                        + recorded.exchange().status() + " does not match the service's API description ("
                        + API_DOCS + "):\n  " + String.join("\n  ", problems));
            }
            return recorded.response();
        });
    }

    /** Sends the request, keeping a copy of both bodies; the test then reads the response as usual. */
    private static Mono<Recorded> exchange(ClientRequest request, ExchangeFunction next) {
        AtomicReference<byte[]> sent = new AtomicReference<>(new byte[0]);
        ClientRequest recording = ClientRequest.from(request)
                .body((message, context) -> request.body().insert(new ClientHttpRequestDecorator(message) {

                    @Override
                    public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
                        return DataBufferUtils.join(body).flatMap(buffer -> {
                            byte[] bytes = new byte[buffer.readableByteCount()];
                            buffer.read(bytes);
                            DataBufferUtils.release(buffer);
                            sent.set(bytes);
                            return super.writeWith(Mono.just(DefaultDataBufferFactory.sharedInstance.wrap(bytes)));
                        });
                    }
                }, context))
                .build();
        return next.exchange(recording).flatMap(response -> DataBufferUtils.join(response.body((message, context) ->
                        message.getBody()))
                .map(buffer -> {
                    byte[] bytes = new byte[buffer.readableByteCount()];
                    buffer.read(bytes);
                    DataBufferUtils.release(buffer);
                    return bytes;
                })
                .defaultIfEmpty(new byte[0])
                .map(received -> new Recorded(record(request, sent.get(), response, received),
                        response.mutate().body(Flux.just(DefaultDataBufferFactory.sharedInstance.wrap(received)))
                                .build())));
    }

    private static Exchange record(ClientRequest request, byte[] sent, ClientResponse response, byte[] received) {
        Request.Method method = Request.Method.valueOf(request.method().name());
        String path = request.url().getRawPath();
        SimpleRequest.Builder recordedRequest = new SimpleRequest.Builder(method, path);
        headers(request.headers()).forEach(recordedRequest::withHeader);
        if (request.url().getRawQuery() != null) {
            for (String pair : request.url().getRawQuery().split("&")) {
                int equals = pair.indexOf('=');
                String name = decode(equals < 0 ? pair : pair.substring(0, equals));
                recordedRequest.withQueryParam(name, equals < 0 ? "" : decode(pair.substring(equals + 1)));
            }
        }
        if (sent.length > 0) {
            recordedRequest.withBody(sent);
        }
        SimpleResponse.Builder recordedResponse = SimpleResponse.Builder.status(response.statusCode().value());
        headers(response.headers().asHttpHeaders()).forEach(recordedResponse::withHeader);
        if (received.length > 0) {
            recordedResponse.withBody(new String(received, StandardCharsets.UTF_8));
        }
        return new Exchange(method, path, recordedRequest.build(), response.statusCode().value(),
                recordedResponse.build());
    }

    private static Map<String, List<String>> headers(HttpHeaders headers) {
        return headers.headerNames().stream().collect(Collectors.toMap(name -> name, headers::getValuesAsList));
    }

    private static String decode(String value) {
        return java.net.URLDecoder.decode(value, StandardCharsets.UTF_8);
    }

    private record Recorded(Exchange exchange, ClientResponse response) {
    }
}
