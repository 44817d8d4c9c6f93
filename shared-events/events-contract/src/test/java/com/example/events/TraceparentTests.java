package com.example.events;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The W3C format, and what it rules out. */
class TraceparentTests {

    @ParameterizedTest
    @ValueSource(strings = {
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00",
            // A later version may append fields.
            "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-what-comes-next" })
    void wellFormedHeadersAreKept(String header) {
        assertThat(Traceparent.validOrNull(header)).isEqualTo(header);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "",
            "garbage",
            // Upper case, a short trace id, a short parent id, no flags.
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
            // All-zero ids, the forbidden version, version 00 with more after it, whitespace, a log-forging newline.
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
            " 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-a\nb" })
    void anythingElseIsDropped(String header) {
        assertThat(Traceparent.validOrNull(header)).isNull();
    }

    @Test
    void nullAndOverlongHeadersAreDropped() {
        assertThat(Traceparent.validOrNull(null)).isNull();
        assertThat(Traceparent.validOrNull("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-" + "x".repeat(300)))
                .isNull();
    }
}
