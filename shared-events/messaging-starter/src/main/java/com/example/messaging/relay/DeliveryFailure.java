package com.example.messaging.relay;

/** Why the broker did not take responsibility for a message; the row stays unsent and is retried. */
record DeliveryFailure(Kind kind, String reason) {

    enum Kind {
        /** The broker answered basic.nack (or the channel closed before it confirmed). */
        NACKED(true),
        /** The broker acked but could not route the message (mandatory publish, basic.return). */
        RETURNED(true),
        /**
         * No confirm within {@code messaging.relay.confirm-timeout}: the message may or may not have arrived. A
         * broker that withholds confirms is blocked (memory or disk alarm) or overloaded: an outage, not a refusal.
         */
        TIMED_OUT(false),
        /** No connection or channel: nothing was (or could be) sent. */
        BROKER_UNAVAILABLE(false),
        /** The broker blocks the connection (memory or disk alarm): nothing was sent. */
        BLOCKED(false);

        private final boolean countsTowardParking;

        Kind(boolean countsTowardParking) {
            this.countsTowardParking = countsTowardParking;
        }

        /**
         * Whether this failure is the broker refusing this row, which may park it. A message the broker
         * refuses again and again is poison for an operator to look at; a broker that is down, blocked
         * or silent is an outage, and parking every row written during a long outage would turn it into
         * manual work. So outages back off without counting toward parking: a row that waited through
         * one is not a step closer to being parked when the broker comes back.
         */
        boolean countsTowardParking() {
            return countsTowardParking;
        }

        /** Whether nothing reached the broker: unreachable or blocking this process. */
        boolean isUnreachable() {
            return this == BROKER_UNAVAILABLE || this == BLOCKED;
        }
    }

    @Override
    public String toString() {
        return kind + ": " + reason;
    }
}
