package com.example.inventory.messaging;

import org.springframework.test.context.TestPropertySource;

/**
 * The same inbox contract with batches that hold several deliveries (batches of 8 with the default prefetch): copies of one event may now share a batch (one claim statement for the batch) or race in two consumers'
 * batches, and poison leaves its batch alone.
 */
@TestPropertySource(properties = { "messaging.inbox.batch.size=8", "spring.cloud.stream.rabbit.default.consumer.prefetch=16" })
class InventoryBatchInboxIntegrationTests extends InventoryInboxIntegrationTests {
}
