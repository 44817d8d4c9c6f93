package com.example.order;

/**
 * What became of a request to cancel an order, and the order as it is after it.
 *
 * @param outcome what the request did
 */
public record Cancellation(Outcome outcome, Order order) {

    public enum Outcome {
        /** This request cancelled the order (and sent its OrderCancelled). */
        CANCELLED,
        /** The order was cancelled before: nothing changed. */
        ALREADY_CANCELLED,
        /** The order was rejected: its rejection already undid what it could, there is nothing to cancel. */
        FINAL
    }
}
