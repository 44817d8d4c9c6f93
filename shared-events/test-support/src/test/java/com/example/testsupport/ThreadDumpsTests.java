package com.example.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

class ThreadDumpsTests {

    @Test
    void anExchangeWithoutAnAnswerIsTriedOnceMoreAfterTheThreadsWereWritten() throws Exception {
        AtomicInteger calls = new AtomicInteger();

        String answer = ThreadDumps.retryOnceIfUnanswered("GET /x on the test port", () -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("Timeout on blocking read", new TimeoutException());
            }
            return "answered";
        });

        assertThat(answer).isEqualTo("answered");
        assertThat(calls).hasValue(2);
        try (Stream<Path> dumps = Files.list(Path.of("target", "thread-dumps"))) {
            assertThat(dumps.filter(file -> file.getFileName().toString().startsWith("GET-x-on-the-test-port-")))
                    .anySatisfy(file -> assertThat(Files.readString(file)).contains("\"main\""));
        }
    }

    @Test
    void anyOtherFailureIsNotTriedAgain() {
        AtomicInteger calls = new AtomicInteger();

        assertThatThrownBy(() -> ThreadDumps.retryOnceIfUnanswered("GET /y", () -> {
            calls.incrementAndGet();
            throw new IllegalStateException("refused");
        })).hasMessage("refused");
        assertThat(calls).hasValue(1);
    }

    @Test
    void aSecondTimeoutFails() {
        assertThatThrownBy(() -> ThreadDumps.retryOnceIfUnanswered("GET /z", () -> {
            throw new IllegalStateException("Timeout on blocking read", new TimeoutException());
        })).hasCauseInstanceOf(TimeoutException.class);
    }
}
