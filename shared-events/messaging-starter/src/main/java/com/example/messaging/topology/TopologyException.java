package com.example.messaging.topology;

/** The broker refused a declaration or could not be reached; the message says which and why, in one line. */
public final class TopologyException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    TopologyException(String message) {
        super(message);
    }

    TopologyException(String message, Throwable cause) {
        super(message, cause);
    }
}
