package com.example.e2e.scenario;

import java.util.ArrayList;
import java.util.List;

import com.example.e2e.check.Requirement;
import com.example.e2e.nemesis.CrashPoint;
import com.example.e2e.topology.Service;

/**
 * One crash point in one service, and what its crash must leave as evidence: after a crash between a
 * broker confirm and marking the row sent, the consumers get the event twice; after a crash between a
 * consumer's commit and its ack, that consumer gets it twice; after a crash between the order's commit
 * and the response, the client's retry is answered as a replay.
 */
record CrashPointCase(Service service, String point) {

    /**
     * The shared crash points (the relay's and the inbox's), each in the downstream service it is crashed in besides
     * order-service: inventory, coupon and risk run the same starter's relay and inbox with handlers of their own, so
     * each shared point is crashed in order-service (which starts every order's way and applies every reply) and in
     * one of them, every one of them at least once. Their consumer points are crashed in each of them too, with the
     * service's own jar, by their modules' fault tests ({@code InboxFaultContract}); a case here costs about 25 s of
     * every CI run.
     */
    private static final List<CrashPointCase> SHARED_DOWNSTREAM = List.of(
            new CrashPointCase(Service.COUPON, CrashPoint.RELAY_BEFORE_PUBLISH),
            new CrashPointCase(Service.RISK, CrashPoint.RELAY_AFTER_PUBLISH_BEFORE_MARK),
            new CrashPointCase(Service.INVENTORY, CrashPoint.CONSUMER_BEFORE_COMMIT),
            new CrashPointCase(Service.INVENTORY, CrashPoint.CONSUMER_AFTER_COMMIT_BEFORE_ACK));

    /**
     * Every crash point of the contract in the services that reach it: order-service's own; the relay's and the
     * inbox's in order-service and in one downstream service each ({@link #SHARED_DOWNSTREAM}); payment-service's own
     * two, around the call to the provider (it runs the same starter's relay and inbox as the others).
     */
    static List<CrashPointCase> all() {
        List<CrashPointCase> cases = new ArrayList<>();
        cases.add(new CrashPointCase(Service.ORDER, CrashPoint.ORDER_AFTER_COMMIT_BEFORE_RESPONSE));
        for (CrashPointCase downstream : SHARED_DOWNSTREAM) {
            cases.add(new CrashPointCase(Service.ORDER, downstream.point()));
            cases.add(downstream);
        }
        cases.add(new CrashPointCase(Service.PAYMENT, CrashPoint.PAYMENT_BEFORE_CHARGE));
        cases.add(new CrashPointCase(Service.PAYMENT, CrashPoint.PAYMENT_AFTER_CHARGE_BEFORE_RECORD));
        return cases;
    }

    List<Requirement> requirements() {
        List<Requirement> requirements = new ArrayList<>(List.of(Requirement.crashedAt(service, point)));
        switch (point) {
            case CrashPoint.ORDER_AFTER_COMMIT_BEFORE_RESPONSE -> requirements.add(Requirement.replaysAfterRetry());
            // order.events carries OrderCreated (inventory, coupon, risk) and PaymentRequested (payment-service): the
            // batch published again reaches whichever consumed what it held.
            case CrashPoint.RELAY_AFTER_PUBLISH_BEFORE_MARK -> requirements.add(service == Service.ORDER
                    ? Requirement.duplicatesSuppressedInAnyOf(Service.INVENTORY, Service.COUPON, Service.PAYMENT)
                    : Requirement.duplicatesSuppressedIn(Service.ORDER));
            case CrashPoint.CONSUMER_AFTER_COMMIT_BEFORE_ACK -> requirements.add(Requirement.duplicatesSuppressedIn(service));
            default -> {
                // before publish / before commit: nothing happened yet; the crash itself is the evidence
            }
        }
        return requirements;
    }

    @Override
    public String toString() {
        return point + " in " + service;
    }
}
