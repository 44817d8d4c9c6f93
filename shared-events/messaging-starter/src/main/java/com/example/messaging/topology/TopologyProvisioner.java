package com.example.messaging.topology;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.impl.DefaultExceptionHandler;

/**
 * Declares the broker topology of the event contract before any service starts (docs/architecture.md, rule 9):
 * every producer's exchange, each service's dead-letter exchange, and for every row of the subscription table the
 * queue, its dead-letter queue and their bindings, with exactly the arguments each service's binder declares (read
 * from the messaging starter's defaults and the environment, {@code INBOX_DELIVERY_LIMIT} included). A service
 * deployed after orders were placed then finds their events waiting in its queue. Then, for each service whose
 * password is given, its broker user with least-privilege permissions ({@link BrokerUsers}). Idempotent; creates no
 * vhost.
 *
 * <p>It runs with administrator credentials as its own step ({@code ./stack topology}, compose's {@code topology}
 * service, the e2e harness) rather than inside a service, because a service's broker user may configure only its
 * own queues. From any service's executable jar, without starting the service:
 * <pre>
 * java -cp order-service/target/order-service.jar -Dloader.main=com.example.messaging.topology.TopologyProvisioner \
 *     org.springframework.boot.loader.launch.PropertiesLauncher
 * </pre>
 * Environment: {@code RABBITMQ_HOST}, {@code RABBITMQ_PORT}, {@code RABBITMQ_VHOST} and the credentials (see
 * {@link BrokerAddress#fromEnvironment}); for the users {@code RABBITMQ_MANAGEMENT_URL} and
 * {@code RABBITMQ_PASSWORD_<SERVICE>}. Prints one line per declared queue and per user; exits 0 when everything is
 * declared, 1 with a one-line reason when the broker cannot be reached or refuses a declaration.
 */
public final class TopologyProvisioner {

    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;

    private TopologyProvisioner() {
    }

    public static void main(String[] args) {
        System.exit(run(System.getenv(), System.out, System.err));
    }

    static int run(Map<String, String> environment, PrintStream out, PrintStream err) {
        try {
            BrokerAddress broker = BrokerAddress.fromEnvironment(environment);
            List<String> declared = provision(broker, environment);
            declared.forEach(out::println);
            out.println("topology: " + declared.size() + " queues declared on " + broker);
            List<String> users = BrokerUsers.provision(broker, environment);
            users.forEach(out::println);
            out.println(users.isEmpty()
                    ? "topology: no broker user provisioned (none of " + BrokerUsers.services().stream()
                            .map(BrokerUsers::passwordVariable).toList() + " is set)"
                    : "topology: " + users.size() + " broker users provisioned");
            return 0;
        } catch (TopologyException | IllegalArgumentException | IllegalStateException e) {
            err.println("topology: " + e.getMessage());
            return 1;
        }
    }

    /**
     * Declares the contract's topology with the consumer settings the services resolve from the given environment.
     *
     * @return one line per declared queue, dead-letter queues included
     * @throws TopologyException when the broker cannot be reached or refuses a declaration
     */
    public static List<String> provision(BrokerAddress broker, Map<String, String> environment) {
        ContractTopology topology = ContractTopology.forContract(environment);
        try (Connection connection = connect(broker); Channel channel = connection.createChannel()) {
            return new TopologyDeclarer(channel).declare(topology);
        } catch (IOException | TimeoutException e) {
            throw new TopologyException("RabbitMQ at " + broker + ": " + TopologyDeclarer.reason(e), e);
        }
    }

    /** {@link #provision(BrokerAddress, Map)} with this process's environment. */
    public static List<String> provision(BrokerAddress broker) {
        return provision(broker, System.getenv());
    }

    private static Connection connect(BrokerAddress broker) {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(broker.host());
        factory.setPort(broker.port());
        factory.setVirtualHost(broker.virtualHost());
        factory.setUsername(broker.user());
        factory.setPassword(broker.password());
        factory.setConnectionTimeout(CONNECT_TIMEOUT_MILLIS);
        factory.setHandshakeTimeout(CONNECT_TIMEOUT_MILLIS);
        // One attempt: whoever runs this (./stack, compose, the harness) decides whether and when to try again.
        factory.setAutomaticRecoveryEnabled(false);
        factory.setExceptionHandler(new QuietExceptionHandler());
        try {
            return factory.newConnection("topology-provisioner");
        } catch (IOException | TimeoutException e) {
            throw new TopologyException("cannot connect to RabbitMQ as " + broker + ": " + describe(e), e);
        }
    }

    /**
     * The client logs a broker that closes the socket after refusing a login or a vhost as an unexpected error; the
     * refusal is reported once, in the one line this ends with.
     */
    private static final class QuietExceptionHandler extends DefaultExceptionHandler {

        @Override
        public void handleUnexpectedConnectionDriverException(Connection connection, Throwable exception) {
        }
    }

    private static String describe(Exception e) {
        String reason = TopologyDeclarer.reason(e);
        return reason == null || reason.equals("null") ? e.getClass().getSimpleName() : reason;
    }
}
