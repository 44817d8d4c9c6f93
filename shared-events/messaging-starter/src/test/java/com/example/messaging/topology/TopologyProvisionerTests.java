package com.example.messaging.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.example.testsupport.TestInfrastructure;

/** The command line: where it connects, as whom, and how it fails. */
class TopologyProvisionerTests {

    @Test
    void theAdministratorsCredentialsWinOverTheServicesAndGuestIsTheLastResort() {
        assertThat(BrokerAddress.fromEnvironment(Map.of()))
                .isEqualTo(new BrokerAddress("localhost", 5672, "/", "guest", "guest"));
        assertThat(BrokerAddress.fromEnvironment(Map.of("RABBITMQ_HOST", "mq", "RABBITMQ_PORT", "5673",
                "RABBITMQ_VHOST", "orders", "RABBITMQ_USER", "svc", "RABBITMQ_PASSWORD", "s")))
                .isEqualTo(new BrokerAddress("mq", 5673, "orders", "svc", "s"));
        assertThat(BrokerAddress.fromEnvironment(Map.of("RABBITMQ_USER", "svc", "RABBITMQ_PASSWORD", "s",
                "RABBITMQ_ADMIN_USER", "admin", "RABBITMQ_ADMIN_PASSWORD", "a")))
                .isEqualTo(new BrokerAddress("localhost", 5672, "/", "admin", "a"));
    }

    @Test
    void theAddressNeverShowsThePassword() {
        assertThat(new BrokerAddress("mq", 5672, "/", "admin", "secret")).hasToString("admin@mq:5672 vhost /");
    }

    @Test
    void anUnreachableBrokerEndsWithOneLineAndExitCodeOne() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int port = TestInfrastructure.freePort();

        int exit = TopologyProvisioner.run(Map.of("RABBITMQ_PORT", Integer.toString(port)), print(out), print(err));

        assertThat(exit).isEqualTo(1);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("topology: cannot connect to RabbitMQ as guest@localhost:"
                + port + " vhost /: ").contains("refused").hasLineCount(1);
    }

    @Test
    void aPortThatIsNotANumberIsSaidSo() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int exit = TopologyProvisioner.run(Map.of("RABBITMQ_PORT", "amqp"), print(new ByteArrayOutputStream()),
                print(err));

        assertThat(exit).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("topology: RABBITMQ_PORT is not a port number: amqp\n");
    }

    private static PrintStream print(ByteArrayOutputStream bytes) {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }
}
