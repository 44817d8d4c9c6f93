package com.example.paymentsimulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

import com.example.testsupport.ServiceDatabase;
import com.example.testsupport.TestInfrastructure;

/** The simulator as a process starts it: its configuration checked, its ledger in its own database. */
class PaymentSimulatorStartupIntegrationTests {

    private static final String API_KEY = "sk_test_restart";

    private String database;

    @BeforeEach
    void freshDatabase() {
        database = TestInfrastructure.get().createDatabase("it_payment_simulator");
    }

    @Test
    void itRefusesToStartWithoutAnApiKey() {
        assertThatThrownBy(() -> start("").close())
                .rootCause()
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("simulator.api-key (env SIMULATOR_API_KEY) is empty");
        assertThatThrownBy(() -> start(" ").close()).rootCause().hasMessageContaining("simulator.api-key");
    }

    /** What a checker reads after the simulator was restarted, and what a caller retrying after it gets. */
    @Test
    void theLedgerSurvivesARestart() {
        String key = UUID.randomUUID().toString();
        String chargeId;
        try (ConfigurableApplicationContext simulator = start(API_KEY)) {
            chargeId = (String) client(simulator).post().uri("/charges").header("Idempotency-Key", key)
                    .contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("amount_cents", 990, "reference", "before the restart")).exchange()
                    .expectStatus().isCreated()
                    .expectBody(Map.class).returnResult().getResponseBody().get("charge_id");
            client(simulator).post().uri("/charges/" + chargeId + "/refunds").header("Idempotency-Key", key)
                    .exchange().expectStatus().isCreated();
        }

        try (ConfigurableApplicationContext simulator = start(API_KEY)) {
            WebTestClient client = client(simulator);
            client.get().uri("/ledger").exchange().expectStatus().isOk()
                    .expectBody()
                    .jsonPath("$.charges.length()").isEqualTo(1)
                    .jsonPath("$.charges[0].charge_id").isEqualTo(chargeId)
                    .jsonPath("$.refunds[0].charge_id").isEqualTo(chargeId);
            client.post().uri("/charges").header("Idempotency-Key", key).contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("amount_cents", 990, "reference", "before the restart")).exchange()
                    .expectStatus().isOk()
                    .expectBody().jsonPath("$.charge_id").isEqualTo(chargeId);
            client.post().uri("/charges/" + chargeId + "/refunds").header("Idempotency-Key", key).exchange()
                    .expectStatus().isOk();
        }
        ServiceDatabase ledger = ServiceDatabase.on(TestInfrastructure.get().postgres(), database);
        assertThat(ledger.count("select count(*) from charges")).isEqualTo(1);
        assertThat(ledger.count("select count(*) from refunds")).isEqualTo(1);
    }

    private ConfigurableApplicationContext start(String apiKey) {
        List<String> arguments = new ArrayList<>(List.of("--server.port=0", "--simulator.api-key=" + apiKey));
        TestInfrastructure.databaseProperties(TestInfrastructure.get().postgres(), database)
                .forEach((name, value) -> arguments.add("--" + name + "=" + value));
        return new SpringApplicationBuilder(PaymentSimulatorApplication.class).run(arguments.toArray(String[]::new));
    }

    private static WebTestClient client(ConfigurableApplicationContext simulator) {
        return WebTestClient.bindToServer()
                .baseUrl("http://localhost:" + simulator.getEnvironment().getProperty("local.server.port"))
                .defaultHeader(HttpHeaders.AUTHORIZATION, "Bearer " + API_KEY).build();
    }
}
