package com.example.events;

/**
 * Names of the AMQP headers every event message carries (see docs/contract.md, "Events on RabbitMQ"). The event id travels
 * in the standard {@code message_id} property, not in a header.
 */
public final class EventHeaders {

    public static final String EVENT_TYPE = "event_type";
    public static final String AGGREGATE_TYPE = "aggregate_type";
    public static final String AGGREGATE_ID = "aggregate_id";
    public static final String SCHEMA_VERSION = "schema_version";
    public static final String OCCURRED_AT = "occurred_at";
    /** W3C trace context of the request that caused the event, when there was one. */
    public static final String TRACEPARENT = "traceparent";
    /** Why a consumer sent a message to its dead-letter queue. */
    public static final String POISON_REASON = "x-poison-reason";

    private EventHeaders() {
    }
}
