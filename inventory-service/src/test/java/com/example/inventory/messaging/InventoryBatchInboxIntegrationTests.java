package com.example.inventory.messaging;

import org.springframework.test.context.TestPropertySource;

/**
 * The same inbox contract with batch consumption: copies of one event may now share a batch (one claim statement
 * for the batch) or race in two consumers' batches, and poison leaves its batch alone.
 */
@TestPropertySource(properties = { "messaging.inbox.batch.size=8",
        "spring.cloud.stream.rabbit.default.consumer.prefetch=8" })
class InventoryBatchInboxIntegrationTests extends InventoryInboxIntegrationTests {
}
