package com.example.order;

/** What became of a {@link PlaceOrder}: a new order, a replay of an earlier one, or a misused key. */
public sealed interface Placement {

    Order order();

    /** This request created the order (and its OrderCreated event). */
    record Created(Order order) implements Placement {
    }

    /** The intent was already placed with the same payload: the order as it is now. */
    record Replayed(Order order) implements Placement {
    }

    /** The key was already used by this user for a different payload; {@code order} is that earlier order. */
    record KeyReused(Order order) implements Placement {
    }
}
