package com.example.payment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;

import org.junit.jupiter.api.Test;

import com.example.payment.PaymentStateMachine.OnCancel;
import com.example.payment.PaymentStateMachine.Work;

class PaymentStateMachineTests {

    @Test
    void aPaymentMovesOnlyForwardAndFinalStatusesGoNowhere() {
        assertThat(PaymentStateMachine.next(PaymentStatus.CREATED))
                .containsExactlyInAnyOrder(PaymentStatus.PROCESSING, PaymentStatus.FAILED);
        assertThat(PaymentStateMachine.next(PaymentStatus.PROCESSING))
                .containsExactlyInAnyOrder(PaymentStatus.SUCCEEDED, PaymentStatus.FAILED);
        assertThat(PaymentStateMachine.next(PaymentStatus.SUCCEEDED)).containsExactly(PaymentStatus.REFUNDED);
        assertThat(PaymentStateMachine.next(PaymentStatus.FAILED)).isEmpty();
        assertThat(PaymentStateMachine.next(PaymentStatus.REFUNDED)).isEmpty();
    }

    @Test
    void aCancelFailsAPaymentNotChargedYetAndHasAChargeInFlightOrDoneRefunded() {
        assertThat(PaymentStateMachine.onCancel(payment(PaymentStatus.CREATED, false)))
                .isEqualTo(OnCancel.FAIL_BEFORE_CHARGE);
        assertThat(PaymentStateMachine.onCancel(payment(PaymentStatus.PROCESSING, false)))
                .isEqualTo(OnCancel.REFUND_ONCE_CHARGED);
        assertThat(PaymentStateMachine.onCancel(payment(PaymentStatus.SUCCEEDED, false)))
                .isEqualTo(OnCancel.REFUND_ONCE_CHARGED);
    }

    @Test
    void aCancelChangesNothingOnceThereIsNothingLeftToUndoOrARefundIsAskedFor() {
        assertThat(PaymentStateMachine.onCancel(payment(PaymentStatus.FAILED, false))).isEqualTo(OnCancel.NOTHING);
        assertThat(PaymentStateMachine.onCancel(payment(PaymentStatus.REFUNDED, true))).isEqualTo(OnCancel.NOTHING);
        assertThat(PaymentStateMachine.onCancel(payment(PaymentStatus.SUCCEEDED, true))).isEqualTo(OnCancel.NOTHING);
        assertThat(PaymentStateMachine.onCancel(payment(PaymentStatus.PROCESSING, true))).isEqualTo(OnCancel.NOTHING);
    }

    @Test
    void theWorkerChargesReconcilesOrRefundsByTheStatusItClaimedIn() {
        assertThat(PaymentStateMachine.work(PaymentStatus.CREATED)).isEqualTo(Work.CHARGE);
        assertThat(PaymentStateMachine.work(PaymentStatus.PROCESSING)).isEqualTo(Work.RECONCILE);
        assertThat(PaymentStateMachine.work(PaymentStatus.SUCCEEDED)).isEqualTo(Work.REFUND);
        assertThatThrownBy(() -> PaymentStateMachine.work(PaymentStatus.REFUNDED))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no work left");
    }

    @Test
    void keysAreDerivedFromTheOrderSoEveryInstanceAsksWithTheSameOne() {
        assertThat(Payment.chargeKey(42)).isEqualTo("payment-42-charge").isEqualTo(Payment.chargeKey(42));
        assertThat(Payment.refundKey(42)).isEqualTo("payment-42-refund");
        assertThat(Payment.reference(42)).isEqualTo("order-42");
    }

    private static Payment payment(PaymentStatus status, boolean cancelRequested) {
        Instant now = Instant.now();
        return new Payment(1, 2L, 100L, status, Payment.chargeKey(1), null, null, null, cancelRequested, null, 0, now,
                now, now);
    }
}
