package com.example.messaging.relay;

import java.time.Instant;
import java.util.UUID;

/**
 * An unsent outbox row claimed for publishing.
 *
 * @param payload    the event's JSON as stored
 * @param occurredAt the event's {@code occurred_at} as written in the payload (RFC 3339), or null if it has none
 * @param attempts      deliveries the broker refused so far (outages do not count)
 * @param refusedSince  when the broker's current run of refusals of this row began, or null if it is not refusing it
 * @param hasLater      whether a later unsent row of the same aggregate waits for this one to be sent
 */
record OutboxRow(UUID id, String aggregateType, String aggregateId, String eventType, String exchange,
        String payload, String traceparent, String occurredAt, Instant createdAt, int attempts, Instant refusedSince,
        boolean hasLater) {
}
