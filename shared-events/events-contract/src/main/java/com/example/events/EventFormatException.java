package com.example.events;

/**
 * An event body that cannot be turned into its record: unparseable JSON, an unknown event type or a
 * missing required field. Such a message is poison: retrying it can never succeed.
 */
public class EventFormatException extends RuntimeException {

    public EventFormatException(String message, Throwable cause) {
        super(message, cause);
    }

    public EventFormatException(String message) {
        super(message);
    }
}
