package com.example.paymentsimulator.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import com.example.service.web.ApiProblem;

class IdempotencyKeysTests {

    @Test
    void theBareAndTheStructuredFieldFormNameTheSameKey() {
        assertThat(IdempotencyKeys.parse("Idempotency-Key", "8e03978e-40d5-43e8-bc93-6894a57f9324"))
                .isEqualTo("8e03978e-40d5-43e8-bc93-6894a57f9324");
        assertThat(IdempotencyKeys.parse("Idempotency-Key", " \"8e03978e-40d5-43e8-bc93-6894a57f9324\" "))
                .isEqualTo("8e03978e-40d5-43e8-bc93-6894a57f9324");
        assertThat(IdempotencyKeys.parse("Idempotency-Key", "x".repeat(255))).hasSize(255);
    }

    @Test
    void emptyOverlongOrOddKeysAreRefusedForTheirField() {
        for (String refused : new String[] { "", "  ", "\"\"", "two words", "a\"b", "a\\b", "é", "x".repeat(256) }) {
            assertThatThrownBy(() -> IdempotencyKeys.parse("idempotency_key", refused)).as(refused)
                    .isInstanceOfSatisfying(ApiProblem.class, problem -> assertThat(problem.errors())
                            .extracting(ApiProblem.FieldError::field).containsExactly("idempotency_key"));
        }
    }
}
