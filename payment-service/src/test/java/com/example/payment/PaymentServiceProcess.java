package com.example.payment;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import com.example.events.PaymentEvent;
import com.example.testsupport.BrokerClient;
import com.example.testsupport.JavaProcess;
import com.example.testsupport.TestInfrastructure;

/**
 * payment-service as a real process (its jar, {@code target/payment-service.jar}, in a child JVM) on ports of its own,
 * against the test infrastructure and the {@link ProviderSimulator}, for tests that need it to die, or to run twice.
 */
final class PaymentServiceProcess implements AutoCloseable {

    private static final String SERVICE = "payment-service";
    private static final Path LOGS = Path.of("target/it-logs");
    private static final Duration START = Duration.ofSeconds(120);

    private final JavaProcess process;
    private final int managementPort;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    private PaymentServiceProcess(JavaProcess process, int managementPort) {
        this.process = process;
        this.managementPort = managementPort;
    }

    /**
     * What points an instance at a database and a fresh vhost, and at the simulator, with short provider timeouts:
     * the lease of a crashed instance's payment (here about 9s) has run out by the time a new instance is up.
     */
    static Map<String, Object> properties(String databaseName, String vhostPrefix) {
        TestInfrastructure infrastructure = TestInfrastructure.get();
        Map<String, Object> properties = new LinkedHashMap<>(infrastructure.springProperties(databaseName,
                infrastructure.createVhost(vhostPrefix)));
        properties.put("payment.provider.url", ProviderSimulator.get().url());
        properties.put("payment.provider.api-key", ProviderSimulator.API_KEY);
        properties.put("payment.provider.timeout", "1s");
        properties.put("payment.provider.connect-timeout", "500ms");
        properties.put("payment.provider.retries", 1);
        properties.put("payment.provider.retry-backoff", "50ms");
        properties.put("payment.provider.retry-max-backoff", "100ms");
        properties.put("payment.worker.backoff.initial", "200ms");
        properties.put("payment.worker.backoff.max", "1s");
        return properties;
    }

    static BrokerClient broker(Map<String, Object> properties) {
        return BrokerClient.forVhost((String) properties.get("spring.rabbitmq.virtual-host"));
    }

    /** Starts an instance on free ports; once it is ready (its exchange declared), makes its events routable. */
    static PaymentServiceProcess start(BrokerClient broker, Map<String, Object> properties, String logName) {
        int port = TestInfrastructure.freePort();
        int managementPort = TestInfrastructure.freePort();
        Map<String, Object> all = new LinkedHashMap<>(properties);
        all.put("server.port", port);
        all.put("management.server.port", managementPort);
        JavaProcess process = JavaProcess.startJar(PrivateJars.copyOf(Path.of("target", SERVICE + ".jar")), all,
                LOGS.resolve(SERVICE + "-" + logName + ".log"));
        try {
            process.awaitReady(port, START);
        } catch (RuntimeException | AssertionError e) {
            process.close();
            throw e;
        }
        broker.bindSink(PaymentEvent.EXCHANGE);
        return new PaymentServiceProcess(process, managementPort);
    }

    int awaitExit(Duration timeout) {
        return process.awaitExit(timeout);
    }

    String log() {
        return process.log();
    }

    /** The sum of a counter in the instance's Prometheus scrape over the series that carry every label given. */
    double metric(String name, String... labels) {
        double sum = 0;
        for (String line : scrape().split("\n")) {
            if (!line.startsWith(name + "{")) {
                continue;
            }
            String series = line.substring(0, line.lastIndexOf('}') + 1);
            boolean matches = true;
            for (String label : labels) {
                matches &= series.contains(label);
            }
            if (matches) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }

    private String scrape() {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + managementPort
                + "/actuator/prometheus")).timeout(Duration.ofSeconds(10)).build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            throw new IllegalStateException("no metrics from " + process, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        process.close();
    }
}
