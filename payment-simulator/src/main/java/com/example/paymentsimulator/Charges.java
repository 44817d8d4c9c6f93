package com.example.paymentsimulator;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.UUID;

import org.springframework.stereotype.Service;

import com.example.paymentsimulator.Outcome.Refusal;
import com.example.paymentsimulator.persistence.LedgerRepository;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Charges and refunds, idempotent as the IETF Idempotency-Key draft has it. The ledger's unique constraints decide
 * every race: the insert that wins makes the charge (or refund); a request that loses, or comes later, inserts
 * nothing and reads the winner's row, which answers it as a replay when it asked for the same thing.
 */
@Service
public class Charges {

    private final LedgerRepository ledger;
    private final FaultInjection faults;
    private final long declineAboveCents;

    Charges(LedgerRepository ledger, FaultInjection faults, SimulatorProperties properties) {
        this.ledger = ledger;
        this.faults = faults;
        this.declineAboveCents = properties.declineAboveCents();
    }

    public Mono<Outcome<Charge>> charge(String idempotencyKey, long amountCents, String reference) {
        String hash = requestHash(amountCents, reference);
        // Drawn for every request, kept only by the one that makes the charge: a replay answers the stored status.
        ChargeStatus status = amountCents > declineAboveCents || faults.decline() ? ChargeStatus.DECLINED
                : ChargeStatus.SUCCEEDED;
        Charge proposed = new Charge(newId("ch_"), idempotencyKey, hash, amountCents, reference, status, null);
        return ledger.insertChargeIfAbsent(proposed).<Outcome<Charge>>map(Outcome.Made::new)
                .switchIfEmpty(Mono.defer(() -> ledger.findChargeByKey(idempotencyKey)
                        .map(existing -> existing.requestHash().equals(hash) ? new Outcome.Replayed<>(existing)
                                : new Outcome.Refused<>(Refusal.KEY_REUSED, "Idempotency-Key was already used for "
                                        + "a different charge (" + existing.chargeId() + "); use a new key for a new "
                                        + "charge"))));
    }

    /** Refunds the whole charge. */
    public Mono<Outcome<Refund>> refund(String chargeId, String idempotencyKey) {
        return ledger.findCharge(chargeId)
                .flatMap(charge -> charge.status() == ChargeStatus.DECLINED
                        ? Mono.just(new Outcome.Refused<Refund>(Refusal.CHARGE_DECLINED, "charge " + chargeId
                                + " was declined: no money moved, there is nothing to refund"))
                        : refund(charge, idempotencyKey))
                .defaultIfEmpty(new Outcome.Refused<>(Refusal.NO_SUCH_CHARGE, "charge " + chargeId
                        + " does not exist"));
    }

    private Mono<Outcome<Refund>> refund(Charge charge, String idempotencyKey) {
        Refund proposed = new Refund(newId("re_"), charge.chargeId(), idempotencyKey, charge.amountCents(), null);
        // A conflict on the key is this key's refund (a replay, or a reuse for another charge); without one, it was
        // on the charge: refunded already, under another key.
        return ledger.insertRefundIfAbsent(proposed).<Outcome<Refund>>map(Outcome.Made::new)
                .switchIfEmpty(Mono.defer(() -> ledger.findRefundByKey(idempotencyKey)
                        .<Outcome<Refund>>map(existing -> existing.chargeId().equals(charge.chargeId())
                                ? new Outcome.Replayed<>(existing)
                                : new Outcome.Refused<>(Refusal.KEY_REUSED, "Idempotency-Key was already used for "
                                        + "the refund of another charge (" + existing.chargeId() + ")"))
                        .defaultIfEmpty(new Outcome.Refused<>(Refusal.ALREADY_REFUNDED, "charge "
                                + charge.chargeId() + " was refunded already, under another Idempotency-Key"))));
    }

    public Mono<Charge> find(String chargeId) {
        return ledger.findCharge(chargeId);
    }

    public Mono<Charge> findByKey(String idempotencyKey) {
        return ledger.findChargeByKey(idempotencyKey);
    }

    /** Every charge ever made, oldest first. */
    public Flux<Charge> everyCharge() {
        return ledger.charges();
    }

    /** Every refund ever made, oldest first. */
    public Flux<Refund> everyRefund() {
        return ledger.refunds();
    }

    /**
     * SHA-256 of the request's canonical form: the amount in decimal, a line feed, the reference. The amount has no
     * line feed, so two different requests never share a form.
     */
    static String requestHash(long amountCents, String reference) {
        try {
            byte[] canonical = (amountCents + "\n" + reference).getBytes(StandardCharsets.UTF_8);
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(canonical));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private static String newId(String prefix) {
        return prefix + UUID.randomUUID().toString().replace("-", "");
    }
}
