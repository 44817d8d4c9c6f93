package com.example.inventory.messaging;

import org.springframework.test.context.TestPropertySource;

/**
 * The same inbox contract with batches that hold several deliveries (the default batch size with the default
 * prefetch): copies of one event may now share a batch (one claim statement for the batch) or race in two consumers'
 * batches, and poison leaves its batch alone. The contract's prefetch of 1 keeps every batch to one delivery.
 */
@TestPropertySource(properties = "spring.cloud.stream.rabbit.default.consumer.prefetch=16")
class InventoryBatchInboxIntegrationTests extends InventoryInboxIntegrationTests {
}
