package com.example.order;

/** What became of a request to cancel an order. */
public sealed interface Cancellation {

    /** The order as it is after the request. */
    Order order();

    /** This request cancelled the order (and sent its OrderCancelled). */
    record Cancelled(Order order) implements Cancellation {
    }

    /** The order was cancelled before: the order as it is now. */
    record AlreadyCancelled(Order order) implements Cancellation {
    }

    /** The order was rejected: its rejection already undid what it could, there is nothing to cancel. */
    record Final(Order order) implements Cancellation {
    }
}
