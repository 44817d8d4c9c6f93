package com.example.payment;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import com.example.payment.persistence.PaymentRepository;
import com.example.payment.persistence.PaymentRepository.Move;
import com.example.service.failure.Failures;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;

/**
 * Records the worker's transitions, each with the event that announces it, in batches that form by themselves: a move
 * that arrives while nothing is being written is written at once, alone, in one statement
 * ({@link PaymentRepository#moveAndAnnounce}); moves that arrive while a statement is in flight (the other outcomes of
 * a round, which the provider answers at about the same time) wait for it and are then written together, in one
 * statement ({@link PaymentRepository#moveAllAndAnnounce}). No move waits for a timer or for another call to the
 * provider; under load the batches grow with the load.
 *
 * <p>A batch is atomic like a single move. If its statement fails, its moves are written again one at a time, so
 * that a move that cannot be written fails alone; a move that still fails is the caller's to handle, as before (the
 * payment is taken up again when its lease runs out). A caller that stops waiting (a round that timed out) does not
 * take its move back: once handed over, a move is written.
 */
@Component
class MoveRecorder {

    /** The distribution of transitions per statement that records them. */
    static final String PER_STATEMENT = "payment.transitions.per.statement";

    private static final Logger log = LoggerFactory.getLogger(MoveRecorder.class);

    private final PaymentRepository payments;
    private final boolean together;
    private final int batchSize;
    private final DistributionSummary perStatement;
    private final ArrayDeque<Pending> waiting = new ArrayDeque<>();
    private boolean writing;

    MoveRecorder(PaymentRepository payments, PaymentProperties properties, MeterRegistry meters) {
        this.payments = payments;
        this.together = properties.worker().recordTogether();
        this.batchSize = properties.worker().batchSize();
        this.perStatement = DistributionSummary.builder(PER_STATEMENT)
                .description("Payment transitions the worker recorded per statement (a batch that failed counts, and "
                        + "so does each of its transitions written again alone)")
                .register(meters);
    }

    /**
     * Records the move; emits the moved payment, or nothing when the payment was no longer in the transition's
     * {@code from} status (someone recorded an outcome first): then no event is written either.
     */
    Mono<Payment> record(Move move) {
        if (!together) {
            return Mono.fromRunnable(() -> perStatement.record(1)).then(payments.moveAndAnnounce(move));
        }
        return Mono.create(sink -> {
            synchronized (waiting) {
                waiting.add(new Pending(move, sink));
                if (writing) {
                    return;
                }
                writing = true;
            }
            writeNext();
        });
    }

    /** Writes what waits, a batch at a time, until nothing does. */
    private void writeNext() {
        List<Pending> batch = next();
        if (batch.isEmpty()) {
            return;
        }
        write(batch).subscribe(null, unexpected -> {
            log.error("Recording {} payment transitions failed unexpectedly", batch.size(), unexpected);
            batch.forEach(pending -> pending.sink().error(unexpected));
            writeNext();
        }, this::writeNext);
    }

    /**
     * Up to a batch of what waits, in arrival order, at most one move per payment (a second one waits for the next
     * batch); empty, and no longer writing, when nothing waits.
     */
    private List<Pending> next() {
        synchronized (waiting) {
            List<Pending> batch = new ArrayList<>();
            Set<Long> orders = new HashSet<>();
            for (Iterator<Pending> pending = waiting.iterator(); pending.hasNext() && batch.size() < batchSize;) {
                Pending next = pending.next();
                if (orders.add(next.move().orderId())) {
                    batch.add(next);
                    pending.remove();
                }
            }
            if (batch.isEmpty()) {
                writing = false;
            }
            return batch;
        }
    }

    /** Writes the batch and settles each of its moves; a batch that fails is written again one move at a time. */
    private Mono<Void> write(List<Pending> batch) {
        if (batch.size() == 1) {
            return writeAlone(batch.get(0));
        }
        List<Move> moves = batch.stream().map(Pending::move).toList();
        perStatement.record(moves.size());
        return payments.moveAllAndAnnounce(moves)
                .collectMap(Payment::orderId, Function.identity())
                .doOnNext(moved -> batch.forEach(pending -> {
                    Payment payment = moved.get(pending.move().orderId());
                    if (payment != null) {
                        pending.sink().success(payment);
                    } else {
                        pending.sink().success();
                    }
                }))
                .then()
                .onErrorResume(failure -> {
                    log.warn("Recording {} payment transitions in one statement failed; recording them one at a time: "
                            + "{}", moves.size(), Failures.describe(failure));
                    return Flux.fromIterable(batch).concatMap(this::writeAlone).then();
                });
    }

    /** One move written alone and settled, whatever its outcome: the caller gets a failure, this never fails. */
    private Mono<Void> writeAlone(Pending pending) {
        perStatement.record(1);
        return payments.moveAndAnnounce(pending.move())
                .doOnNext(moved -> pending.sink().success(moved))
                .switchIfEmpty(Mono.fromRunnable(() -> pending.sink().success()))
                .onErrorResume(failure -> Mono.fromRunnable(() -> pending.sink().error(failure)))
                .then();
    }

    private record Pending(Move move, MonoSink<Payment> sink) {
    }
}
