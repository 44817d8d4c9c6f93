package com.example.messaging.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** The permissions each service's broker user gets, derived from the contract's tables. */
class BrokerUsersTests {

    private final ContractTopology topology = ContractTopology.forContract(Map.of());

    @Test
    void inventoryServiceMayConfigureAndWriteItsOwnExchangesAndQueuesAndReadWhatItConsumes() {
        BrokerUsers.Permissions inventory = BrokerUsers.permissions(topology, "inventory-service", "inventory-service");

        String own = "^(inventory-service\\.dlx|inventory\\.events|order\\.events\\.inventory-service"
                + "|order\\.events\\.inventory-service\\.dlq)$";
        assertThat(inventory.configure()).isEqualTo(own);
        assertThat(inventory.write()).isEqualTo(own);
        assertThat(inventory.read()).isEqualTo("^(inventory-service\\.dlx|order\\.events"
                + "|order\\.events\\.inventory-service|order\\.events\\.inventory-service\\.dlq)$");
    }

    @Test
    void orderServiceReadsTheThreeExchangesItConsumesFromButWritesOnlyItsOwn() {
        BrokerUsers.Permissions order = BrokerUsers.permissions(topology, "order-service", "order-service");

        assertThat(order.write()).contains("order\\.events|").contains("risk\\.events\\.order-service")
                .doesNotContain("risk\\.events|").doesNotContain("inventory\\.events|");
        assertThat(order.read()).contains("risk\\.events|", "coupon\\.events|", "inventory\\.events|")
                .doesNotContain("order\\.events|");
    }

    @Test
    void everyServiceOfTheContractHasAUserAndAPasswordVariable() {
        assertThat(BrokerUsers.services()).containsExactly("coupon-service", "inventory-service", "order-service",
                "payment-service", "risk-service");
        assertThat(BrokerUsers.passwordVariable("inventory-service")).isEqualTo("RABBITMQ_PASSWORD_INVENTORY_SERVICE");
    }
}
