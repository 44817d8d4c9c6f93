package com.example.messaging.inbox;

import java.time.Duration;
import java.util.concurrent.TimeoutException;

/**
 * An inbox transaction that did not commit within {@code messaging.inbox.transaction-timeout}. Its own type, so
 * that it counts as a timed-out attempt while any other {@link TimeoutException} (a pool that has no connection
 * to give) stays an infrastructure failure.
 */
final class InboxTimeoutException extends TimeoutException {

    InboxTimeoutException(Duration timeout) {
        super("the inbox transaction did not commit within " + timeout);
    }
}
