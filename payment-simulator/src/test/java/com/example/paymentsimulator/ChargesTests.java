package com.example.paymentsimulator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ChargesTests {

    @Test
    void theSameRequestHasTheSameHashAndAnyOtherAnother() {
        String hash = Charges.requestHash(2599, "payment-1");

        assertThat(hash).isEqualTo(Charges.requestHash(2599, "payment-1")).hasSize(64).matches("[0-9a-f]+");
        assertThat(Charges.requestHash(2598, "payment-1")).isNotEqualTo(hash);
        assertThat(Charges.requestHash(2599, "payment-2")).isNotEqualTo(hash);
        // Amount and reference never run into each other.
        assertThat(Charges.requestHash(25, "99payment-1")).isNotEqualTo(hash);
    }
}
