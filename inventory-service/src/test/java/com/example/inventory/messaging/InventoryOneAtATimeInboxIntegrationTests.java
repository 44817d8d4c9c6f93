package com.example.inventory.messaging;

import org.springframework.test.context.TestPropertySource;

/**
 * The same inbox contract one delivery at a time ({@code messaging.inbox.batch.size=1}): each delivery applied in its
 * own transaction on the listener thread, poison dead-lettered by the binder's error handler.
 */
@TestPropertySource(properties = "messaging.inbox.batch.size=1")
class InventoryOneAtATimeInboxIntegrationTests extends InventoryInboxIntegrationTests {
}
