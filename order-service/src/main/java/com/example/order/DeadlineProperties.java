package com.example.order;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The order's deadline ({@code orders.*}; docs/operations.md, "Settings an operator changes").
 *
 * @param deadline              how long an order may stay CREATED; after that it is rejected
 * @param deadlineSweepInterval how often every instance looks for orders past their deadline; unset: the smaller
 *                              of {@value #LONGEST_DEFAULT_SWEEP_SECONDS} seconds and a tenth of the deadline, so an
 *                              order is rejected at most that long after its deadline
 */
@ConfigurationProperties("orders")
record DeadlineProperties(@DefaultValue("10m") Duration deadline, Duration deadlineSweepInterval) {

    static final long LONGEST_DEFAULT_SWEEP_SECONDS = 5;

    DeadlineProperties {
        if (deadline == null || deadline.isNegative() || deadline.isZero()) {
            throw new IllegalArgumentException("orders.deadline must be a positive duration, not " + deadline);
        }
        if (deadlineSweepInterval != null && (deadlineSweepInterval.isNegative() || deadlineSweepInterval.isZero())) {
            throw new IllegalArgumentException("orders.deadline-sweep-interval must be a positive duration, not "
                    + deadlineSweepInterval);
        }
    }

    /** The sweep interval in effect. */
    Duration sweepInterval() {
        if (deadlineSweepInterval != null) {
            return deadlineSweepInterval;
        }
        Duration tenth = deadline.dividedBy(10);
        Duration longest = Duration.ofSeconds(LONGEST_DEFAULT_SWEEP_SECONDS);
        return tenth.compareTo(longest) < 0 && !tenth.isZero() ? tenth : longest;
    }
}
