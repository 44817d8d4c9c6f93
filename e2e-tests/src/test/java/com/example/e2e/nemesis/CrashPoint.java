package com.example.e2e.nemesis;

import java.util.Set;

/**
 * The crash points of the public contract (docs/contract.md, "Crash points"), by name: the harness tests the
 * system from outside, as any client would. A service refuses at start a point it does not declare, so a name
 * that drifts from the services' fails the first scenario that arms it.
 */
public final class CrashPoint {

    public static final String ORDER_AFTER_COMMIT_BEFORE_RESPONSE = "order.after-commit-before-response";
    public static final String RELAY_BEFORE_PUBLISH = "relay.before-publish";
    public static final String RELAY_AFTER_PUBLISH_BEFORE_MARK = "relay.after-publish-before-mark";
    public static final String CONSUMER_BEFORE_COMMIT = "consumer.before-commit";
    public static final String CONSUMER_AFTER_COMMIT_BEFORE_ACK = "consumer.after-commit-before-ack";
    public static final String PAYMENT_BEFORE_CHARGE = "payment.before-charge";
    public static final String PAYMENT_AFTER_CHARGE_BEFORE_RECORD = "payment.after-charge-before-record";

    public static final Set<String> ALL = Set.of(ORDER_AFTER_COMMIT_BEFORE_RESPONSE, RELAY_BEFORE_PUBLISH,
            RELAY_AFTER_PUBLISH_BEFORE_MARK, CONSUMER_BEFORE_COMMIT, CONSUMER_AFTER_COMMIT_BEFORE_ACK,
            PAYMENT_BEFORE_CHARGE, PAYMENT_AFTER_CHARGE_BEFORE_RECORD);

    private CrashPoint() {
    }
}
