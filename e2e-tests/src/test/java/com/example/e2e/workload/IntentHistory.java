package com.example.e2e.workload;

import java.util.List;

/**
 * Everything the client saw of one intent: its attempts in order and the resulting outcome. An
 * ACKED intent knows its order id; an UNKNOWN one does not know whether an order exists. An intent its user
 * cancelled also has the cancellation's last answer.
 *
 * @param cancellation null when the user did not cancel
 */
public record IntentHistory(Intent intent, List<Attempt> attempts, Outcome outcome, Cancellation cancellation) {

    public IntentHistory {
        attempts = List.copyOf(attempts);
    }

    public IntentHistory(Intent intent, List<Attempt> attempts, Outcome outcome) {
        this(intent, attempts, outcome, null);
    }

    /** The same history, with the user's cancellation of its order. */
    public IntentHistory cancelled(Cancellation answer) {
        return new IntentHistory(intent, attempts, outcome, answer);
    }

    /** The order id the client was given (every acked answer of one intent must name the same order). */
    public long orderId() {
        return attempts.stream().filter(Attempt::acked).mapToLong(Attempt::orderId).findFirst().orElse(0);
    }

    /** Distinct order ids in acked answers: more than one would mean the service answered with two orders. */
    public List<Long> ackedOrderIds() {
        return attempts.stream().filter(Attempt::acked).map(Attempt::orderId).distinct().toList();
    }

    /** The intent needed more than one request because an earlier one got no usable answer. */
    public boolean retried() {
        return attempts.stream().anyMatch(Attempt::retryable) && attempts.size() > 1;
    }

    /** A retry after a lost answer was told the order already existed: the replay a fault makes necessary. */
    public boolean answeredAsReplayAfterRetry() {
        boolean failedBefore = false;
        for (Attempt attempt : attempts) {
            if (attempt.retryable()) {
                failedBefore = true;
            } else if (failedBefore && attempt.replayed()) {
                return true;
            }
        }
        return false;
    }

    public long replays() {
        return attempts.stream().filter(Attempt::replayed).count();
    }
}
