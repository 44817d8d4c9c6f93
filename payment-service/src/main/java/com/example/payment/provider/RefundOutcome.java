package com.example.payment.provider;

/** What the provider said about a refund, or that it said nothing conclusive. Never an exception. */
public sealed interface RefundOutcome {

    /** The charge is refunded (now, or by an earlier request under the same key). */
    record Refunded(String refundId) implements RefundOutcome {
    }

    /**
     * The charge was already refunded under another key (409). With the refund key derived from the payment this
     * cannot happen unless someone else refunded it: an operator must look.
     */
    record RefundedElsewhere(String detail) implements RefundOutcome {
    }

    /** No conclusive answer (timeout, dropped connection, 5xx after the quick retries): ask again, same key. */
    record Unknown(String reason) implements RefundOutcome {
    }

    /** The provider refused the request itself (another 4xx): an operator must look. */
    record Refused(int status, String detail) implements RefundOutcome {
    }
}
