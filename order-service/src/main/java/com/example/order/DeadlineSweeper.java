package com.example.order;

import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import com.example.service.failure.Failures;

import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Sweeps the orders past their deadline ({@link OrderDeadlines}) and then refreshes the oldest pending order's age
 * ({@link PendingOrders}), every {@code orders.deadline-sweep-interval}, on every instance, for as long as the
 * application runs. A tick that fails (the database is away) is logged and the next tick tries again: nothing here
 * ends the loop, and nothing needs a restart to recover.
 */
@Component
class DeadlineSweeper implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(DeadlineSweeper.class);
    /** How long the age of the oldest pending order may take to read. */
    private static final Duration REFRESH_TIMEOUT = Duration.ofSeconds(10);

    private final OrderDeadlines deadlines;
    private final PendingOrders pending;
    private final Duration interval;
    private Scheduler scheduler;
    private Disposable schedule;
    private int failuresInARow;

    DeadlineSweeper(OrderDeadlines deadlines, PendingOrders pending, DeadlineProperties properties) {
        this.deadlines = deadlines;
        this.pending = pending;
        this.interval = properties.sweepInterval();
    }

    @Override
    public synchronized void start() {
        if (schedule != null) {
            return;
        }
        scheduler = Schedulers.newSingle("order-deadlines");
        schedule = Flux.interval(Duration.ZERO, interval, scheduler)
                .onBackpressureDrop()
                .concatMap(tick -> tick(), 1)
                .subscribe();
        log.info("Order deadline sweep started: every {}", interval);
    }

    /** One tick; never ends in an error. */
    private Mono<Void> tick() {
        return Mono.defer(deadlines::sweep)
                .then(Mono.defer(pending::refresh).timeout(REFRESH_TIMEOUT))
                .doOnSuccess(done -> recovered())
                .onErrorResume(this::failed);
    }

    private void recovered() {
        if (failuresInARow > 0) {
            log.info("Order deadline sweep recovered after {} failed ticks", failuresInARow);
            failuresInARow = 0;
        }
    }

    private Mono<Void> failed(Throwable e) {
        failuresInARow++;
        // The first failure and every tenth: an outage of minutes should not flood the log.
        if (failuresInARow == 1 || failuresInARow % 10 == 0) {
            log.warn("Order deadline sweep failed ({} in a row), trying again in {}: {}", failuresInARow, interval,
                    Failures.describe(e));
        } else {
            log.debug("Order deadline sweep failed ({} in a row): {}", failuresInARow, Failures.describe(e));
        }
        return Mono.empty();
    }

    @Override
    public synchronized void stop() {
        if (schedule != null) {
            // Cancelling a batch in flight rolls its transaction back; the next start sweeps those orders again.
            schedule.dispose();
            scheduler.dispose();
            schedule = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return schedule != null;
    }
}
