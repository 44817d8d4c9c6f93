package com.example.e2e.workload;

/**
 * The user's cancellation of an acknowledged order ({@code POST /orders/{id}/cancellation}), retried like the order
 * itself while it got no usable answer.
 *
 * @param status   the last answer's HTTP status: 200 (cancelled, or already), 409 (the order had been rejected first),
 *                 0 when no request got an answer (a 5xx when the last one got that)
 * @param requests how many requests it took
 */
public record Cancellation(int status, int requests) {

    /** The order was cancelled by this request or an earlier one: it must end CANCELLED. */
    public boolean accepted() {
        return status == 200;
    }

    /** Refused because the order had already been rejected ({@code order-final}): it must stay REJECTED. */
    public boolean refusedAsFinal() {
        return status == 409;
    }
}
