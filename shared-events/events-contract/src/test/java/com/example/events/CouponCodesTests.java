package com.example.events;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class CouponCodesTests {

    @ParameterizedTest
    @ValueSource(strings = { "A", "WELCOME10", "spring_25-x", "0123456789012345678901234567890123456789012345678901234567890123" })
    void acceptsOneToSixtyFourLettersDigitsUnderscoresAndDashes(String code) {
        assertThat(CouponCodes.isValid(code)).isTrue();
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = { "BAD CODE", "BAD.CODE", "ÄPFEL", "01234567890123456789012345678901234567890123456789012345678901234" })
    void refusesAnythingElse(String code) {
        assertThat(CouponCodes.isValid(code)).isFalse();
    }
}
