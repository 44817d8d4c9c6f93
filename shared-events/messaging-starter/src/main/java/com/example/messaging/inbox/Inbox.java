package com.example.messaging.inbox;

import java.time.Duration;
import java.util.Collection;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Predicate;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.messaging.Message;

import com.example.events.DomainEvent;
import com.example.events.EventHeaders;
import com.example.events.EventTypes;
import com.example.service.failure.Failures;
import com.example.service.faults.CrashPoints;

import reactor.core.Exceptions;
import reactor.core.publisher.Mono;

/**
 * Applies each event of the service's one imperative {@code Consumer<Message<byte[]>>} binding
 * ({@code inbox-in-0}) exactly once: the effect, its replies (outbox rows) and the event's processed_events
 * row commit in one R2DBC transaction, the listener thread waits for it (bounded), and only then is the
 * message acknowledged. A service declares {@link EventHandler} beans and nothing else: the inbox is the
 * function bean {@code inbox}, and {@link InboxBinding} subscribes it to what the handlers handle.
 *
 * <h2>Outcomes</h2>
 * <ul>
 * <li><b>New event</b>: applied, committed, then acknowledged. A crash between commit and ack makes
 * the broker redeliver it; the redelivery is a duplicate.</li>
 * <li><b>Duplicate</b> (its id is in processed_events): acknowledged without effect, counted in
 * {@code events.duplicates}, logged at DEBUG.</li>
 * <li><b>Known type without a handler</b> (the service does not care): acknowledged without effect.</li>
 * <li><b>Poison</b> (no or bad {@code message_id}, unknown {@code event_type}, a body over
 * {@code messaging.inbox.max-message-size}, unreadable body,
 * business-invalid payload, or a failure that recurs while the database answers): straight to the
 * dead-letter queue with the reason in {@value EventHeaders#POISON_REASON}; never retried.</li>
 * <li><b>Timed out while the database answers</b> (PostgreSQL's statement or lock timeout, or the transaction
 * timeout, and the database answers a probe): retried like an infrastructure failure, but only until
 * {@code messaging.inbox.timeouts-before-poison} attempts of this delivery have timed out; then it is poison
 * ("transaction timed out N times while the database answered: ..."). A transaction that can never finish
 * (a lock nobody releases, a statement too slow for the data) must not hold its consumer forever.</li>
 * <li><b>Infrastructure failure</b> (database down, pool exhausted, deadlock, serialization failure, or a
 * timeout while the database does not answer): retried here, in the listener thread, without limit, with
 * capped exponential backoff, until it succeeds.</li>
 * </ul>
 *
 * <h2>Batches</h2>
 * With {@code messaging.inbox.batch.size} above 1 the listener thread reads each delivery (poison goes to the
 * dead-letter queue from there, as a single delivery's does) and queues its event on one of
 * {@code messaging.inbox.batch.lanes} lanes, chosen by the order the event is about; what gathers on a lane while its
 * batch is being applied makes up its next one, up to that many deliveries ({@link InboxLanes}: no waiting for a batch
 * to fill, nothing to do while idle). A batch is applied in one transaction ({@link InboxTransaction#applyAll}) and
 * each of its deliveries acknowledged after the commit. A batch whose transaction fails is applied one event at a
 * time, each with the outcomes above, so a batch never makes an event poison.
 *
 * <h2>Why the binder is configured as it is (the messaging starter's defaults)</h2>
 * The RabbitMQ binder gives three ways to deal with a listener exception, and none of them may see
 * a database outage:
 * <ul>
 * <li>Binder retry ({@code maxAttempts > 1}) is in-memory and bounded; once exhausted, the recoverer
 * hands the message to the binding's error channel, where the {@code republishToDlq} handler publishes
 * it to the DLQ and acknowledges it. An outage longer than the retry window would move every waiting
 * event to the DLQ (and with {@code autoBindDlq=false} the republish goes nowhere: the message is
 * acknowledged and lost, docs/architecture.md, rule 4).</li>
 * <li>Requeueing does not help either. With {@code republishToDlq=true} the error handler dead-letters
 * every exception except {@code ImmediateAcknowledgeAmqpException} (which acknowledges, i.e. drops);
 * it does not look for {@code ImmediateRequeueAmqpException}. With {@code republishToDlq=false} and
 * {@code requeueRejected=true} the message comes straight back with no backoff (a hot loop), each
 * redelivery raises the quorum queue's delivery count until {@code x-delivery-limit} dead-letters it
 * anyway, and a broker-dead-lettered message cannot carry the poison reason.</li>
 * <li>So the binding runs with {@code maxAttempts=1}, {@code republishToDlq=true},
 * {@code autoBindDlq=true} and manual acknowledgements, and this class never lets an infrastructure
 * failure escape. While it retries, the message stays unacknowledged on this consumer: the broker
 * neither redelivers it nor counts a delivery. Only {@link PoisonMessageException} escapes; with one
 * attempt it goes directly to the error handler, which publishes the raw message (with our header,
 * plus the binder's {@code x-exception-message}) to {@code <queue>.dlq} with publisher confirms and then
 * acknowledges the original.</li>
 * </ul>
 * Manual acknowledgements matter for shutdown: the listener container interrupts a thread still busy
 * after its shutdown timeout; the inbox then nacks the message with requeue, so it returns to the
 * queue instead of reaching the error handler (and the DLQ). The quorum queue's delivery limit counts
 * such returns and deliveries to consumers that died; it is the broker's safety net for a message that
 * kills its consumer every time, so it should be well above the number of restarts an outage can
 * cause. An outage longer than RabbitMQ's {@code consumer_timeout} (30 minutes by default) makes the
 * broker close the channel: the message is redelivered (one more delivery) and the late ack fails,
 * which is harmless because the redelivery is then a duplicate.
 */
public final class Inbox implements Consumer<Message<byte[]>>, SmartLifecycle {

    /**
     * Stops before the input bindings (whose phase is {@code Integer.MAX_VALUE - 3000}): batches in flight end, or are
     * handed back, while their channels are still open.
     */
    static final int PHASE = Integer.MAX_VALUE - 2000;

    private static final Logger log = LoggerFactory.getLogger(Inbox.class);

    /** The header under which the binder exposes the raw AMQP message (bindSourceMessage). */
    private static final String SOURCE_DATA = "sourceData";

    private final Map<String, EventHandler<?>> handlers;
    private final InboxTransaction transaction;
    private final FailureClassifier failures;
    private final CrashPoints crashPoints;
    private final InboxMetrics metrics;
    private final InboxProperties properties;
    private final DeadLetterPublisher deadLetters;
    private final InboxLanes<Pending> lanes;
    private final int laneCount;
    private volatile boolean running;

    /**
     * @param deadLetters where poison deliveries of a batch go; without it (no RabbitMQ connection, so nothing to
     *                    consume) deliveries are applied one at a time
     */
    Inbox(Collection<EventHandler<?>> handlers, InboxTransaction transaction, FailureClassifier failures,
            CrashPoints crashPoints, InboxMetrics metrics, InboxProperties properties,
            DeadLetterPublisher deadLetters) {
        this.handlers = byEventType(handlers);
        this.transaction = transaction;
        this.failures = failures;
        this.crashPoints = crashPoints;
        this.metrics = metrics;
        this.properties = properties;
        this.deadLetters = deadLetters;
        this.lanes = properties != null && properties.batch().enabled() && deadLetters != null
                ? new InboxLanes<>(properties.batch().size(), properties.batch().linger(),
                        lingersFor(properties.batch().lingersFor()), properties.batch().stopTimeout(),
                        this::acceptBatch, Pending::handBackUnlessSettled)
                : null;
        this.laneCount = properties != null ? properties.batch().lanes() : 1;
    }

    /**
     * Handles one delivery: one at a time, it returns once the delivery is acknowledged (or handed back to the broker);
     * with batch consumption ({@code messaging.inbox.batch.size} above 1) it reads the event, hands it to the lane of
     * its order and returns at once ({@link InboxLanes}).
     *
     * @throws PoisonMessageException for a message that belongs in the dead-letter queue
     */
    @Override
    public void accept(Message<byte[]> message) {
        Pending delivery = received(message);
        if (delivery == null) {
            return;
        }
        if (lanes != null) {
            offer(delivery);
        } else {
            acceptOne(delivery);
        }
    }

    /**
     * Reads a delivery on the listener thread: a delivery that is poison before anything applies it goes to the
     * dead-letter queue (through the binder), and one without a handler is acknowledged (null).
     */
    private Pending received(Message<byte[]> message) {
        InboundEvent event;
        try {
            event = read(message);
        } catch (PoisonMessageException poison) {
            throw deadLetter(message, poison);
        }
        EventHandler<?> handler = handlers.get(event.type());
        if (handler == null) {
            log.debug("Event {} ({}) has no handler here: acknowledged without effect", event.id(), event.type());
            metrics.ignored(event.type());
            Acknowledgement.of(message).ack();
            return null;
        }
        return new Pending(message, event, handler);
    }

    /**
     * Batch consumption: an event goes to the lane of the order it is about. So the events of one order, from
     * whichever of the service's queues and channels, are never in two batches at once: batches in flight side by
     * side never wait for each other's order rows.
     */
    private void offer(Pending delivery) {
        InboundEvent event = delivery.event();
        int lane = Math.floorMod(Long.hashCode(event.event().orderId()), laneCount);
        if (!lanes.offer(lane, delivery)) {
            log.debug("Stopping: event {} ({}) stays unacknowledged and goes back to the queue with its channel",
                    event.id(), event.type());
        }
    }

    /**
     * Opens batch consumption: at start-up, and again after the application context was stopped (a binding restarted
     * on its own keeps the inbox running: its lanes simply start over with the new channels).
     */
    @Override
    public void start() {
        if (lanes != null) {
            lanes.start();
        }
        running = true;
    }

    /** With batch consumption: no further batch, the ones in flight end (or are handed back) before the binding stops. */
    @Override
    public void stop() {
        running = false;
        if (lanes != null) {
            lanes.stop();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    /** Whether deliveries are applied in batches ({@link InboxLanes}) rather than one at a time on the listener thread. */
    boolean consumesInBatches() {
        return lanes != null;
    }

    private static Predicate<Pending> lingersFor(Predicate<String> eventTypes) {
        return delivery -> eventTypes.test(delivery.event().type());
    }

    /** How long an idle lane waits before it takes a batch (zero without batches). */
    Duration batchLinger() {
        return lanes == null ? Duration.ZERO : lanes.linger();
    }

    private void acceptOne(Pending delivery) {
        InboundEvent event = delivery.event();
        Optional<Boolean> applied = applyUntilDone(delivery.message(), event, delivery.handler());
        if (applied.isEmpty()) {
            delivery.requeue();
            Thread.currentThread().interrupt();
            return;
        }
        counted(event, applied.get());
        if (applied.get()) {
            crashPoints.reach(ConsumerCrashPoints.AFTER_COMMIT_BEFORE_ACK);
        }
        delivery.ack();
    }

    /**
     * A batch of one lane: its events are applied in one transaction, and after its commit each delivery is
     * acknowledged. When that transaction fails for any reason, nothing of it stays, and the events are applied one at
     * a time instead, each with its own retries, timeouts and poison verdict as a single delivery has them: a batch
     * never makes an event poison.
     */
    private void acceptBatch(List<Pending> batch) {
        metrics.batch(batch.size());
        List<InboundEvent> events = new ArrayList<>(batch.size());
        List<EventHandler<?>> eventHandlers = new ArrayList<>(batch.size());
        for (Pending pending : batch) {
            events.add(pending.event());
            eventHandlers.add(pending.handler());
        }
        List<Boolean> applied;
        try {
            applied = transaction.applyAll(events, eventHandlers)
                    .timeout(properties.transactionTimeout(),
                            Mono.error(() -> new InboxTimeoutException(properties.transactionTimeout())))
                    .block();
        } catch (RuntimeException failure) {
            if (FailureClassifier.isInterruption(failure)) {
                log.info("Stopping while a batch of {} events was not applied: it goes back to the queue",
                        batch.size());
                batch.forEach(Pending::requeue);
                Thread.currentThread().interrupt();
                return;
            }
            log.info("A batch of {} events was not applied together ({}); applying them one at a time",
                    batch.size(), Failures.describe(failure));
            acceptOneByOne(batch);
            return;
        }
        for (int i = 0; i < events.size(); i++) {
            counted(events.get(i), Boolean.TRUE.equals(applied.get(i)));
        }
        if (applied.contains(Boolean.TRUE)) {
            crashPoints.reach(ConsumerCrashPoints.AFTER_COMMIT_BEFORE_ACK);
        }
        batch.forEach(Pending::ack);
    }

    /** The events of a batch whose common transaction failed, each in its own, as single deliveries. */
    private void acceptOneByOne(List<Pending> batch) {
        for (int i = 0; i < batch.size(); i++) {
            Pending pending = batch.get(i);
            Optional<Boolean> applied;
            try {
                applied = applyUntilDone(pending.message(), pending.event(), pending.handler());
            } catch (PoisonMessageException poison) {
                deadLetterAlone(pending, poison);
                continue;
            }
            if (applied.isEmpty()) {
                batch.subList(i, batch.size()).forEach(Pending::requeue);
                Thread.currentThread().interrupt();
                return;
            }
            counted(pending.event(), applied.get());
            if (applied.get()) {
                crashPoints.reach(ConsumerCrashPoints.AFTER_COMMIT_BEFORE_ACK);
            }
            pending.ack();
        }
    }

    /** Acknowledges a poison delivery of a batch once its dead-letter copy is confirmed, else hands it back. */
    private void deadLetterAlone(Pending pending, PoisonMessageException poison) {
        if (deadLetters.publish(pending.message(), poison.getMessage())) {
            pending.ack();
        } else {
            pending.requeue();
        }
    }

    /** @throws PoisonMessageException for a delivery that is not an event this service can read */
    private InboundEvent read(Message<byte[]> delivery) {
        return InboundEvent.from(delivery, properties.maxMessageSize().toBytes());
    }

    private void counted(InboundEvent event, boolean applied) {
        if (applied) {
            metrics.applied(event.type());
        } else {
            log.debug("Duplicate event {} ({}) acknowledged without effect", event.id(), event.type());
            metrics.duplicate(event.type());
        }
    }

    /**
     * Runs the transaction until it commits. Empty when the listener is being stopped before that.
     *
     * @throws PoisonMessageException when the failure is not transient
     */
    private Optional<Boolean> applyUntilDone(Message<byte[]> message, InboundEvent event, EventHandler<?> handler) {
        Duration transactionTimeout = properties.transactionTimeout();
        int timeouts = 0;
        for (int attempt = 1;; attempt++) {
            try {
                Boolean applied = transaction.apply(event, handler)
                        .timeout(transactionTimeout, Mono.error(() -> new InboxTimeoutException(transactionTimeout)))
                        .block();
                if (attempt > 1) {
                    log.info("Event {} ({}) went through at attempt {}", event.id(), event.type(), attempt);
                }
                return Optional.of(Boolean.TRUE.equals(applied));
            } catch (RuntimeException failure) {
                switch (failures.classify(failure)) {
                    case POISON -> throw deadLetter(message, poison(failure));
                    case INTERRUPTED -> {
                        log.info("Stopping while event {} ({}) was not applied: it goes back to the queue",
                                event.id(), event.type());
                        return Optional.empty();
                    }
                    case TIMED_OUT -> {
                        timeouts++;
                        if (timeouts >= properties.timeoutsBeforePoison()) {
                            throw deadLetter(message, new PoisonMessageException("transaction timed out " + timeouts
                                    + " times while the database answered: " + Failures.describe(Exceptions.unwrap(failure)), failure));
                        }
                        Duration backoff = properties.backoff().delayAfter(attempt);
                        log.warn("Event {} ({}) timed out while the database answers (attempt {}, timeout {} of {} "
                                + "before it is poison), retrying in {}: {}", event.id(), event.type(), attempt,
                                timeouts, properties.timeoutsBeforePoison(), backoff, Failures.describe(failure));
                        if (!retryAfter(backoff, event)) {
                            return Optional.empty();
                        }
                    }
                    case BLOCKED_BY_IDLE_TRANSACTION -> {
                        Duration backoff = properties.backoff().delayAfter(attempt);
                        // Not counted toward poison: the locks belong to a session that does nothing with them.
                        if (attempt == 1 || attempt % 10 == 0) {
                            log.warn("Event {} ({}) waits for locks held by a session idle in its transaction "
                                    + "(attempt {}), retrying in {}: {}", event.id(), event.type(), attempt, backoff,
                                    Failures.describe(failure));
                        }
                        if (!retryAfter(backoff, event)) {
                            return Optional.empty();
                        }
                    }
                    case TRANSIENT -> {
                        Duration backoff = properties.backoff().delayAfter(attempt);
                        logRetry(event, attempt, backoff, failure);
                        if (!retryAfter(backoff, event)) {
                            return Optional.empty();
                        }
                    }
                }
            }
        }
    }

    /** Counts the retry and waits for it; false when the listener is being stopped meanwhile. */
    private boolean retryAfter(Duration backoff, InboundEvent event) {
        metrics.retried(event.type());
        if (pause(backoff)) {
            return true;
        }
        log.info("Stopping while event {} ({}) waits for its next attempt: it goes back to the queue", event.id(),
                event.type());
        return false;
    }

    private static PoisonMessageException poison(RuntimeException failure) {
        return failure instanceof PoisonMessageException poison ? poison
                : new PoisonMessageException("failed while the database answers: " + failure, failure);
    }

    /**
     * Puts the reason on the raw AMQP message, which the binder's error handler republishes to the
     * dead-letter queue as it is, and returns the exception that sends it there.
     */
    private PoisonMessageException deadLetter(Message<byte[]> message, PoisonMessageException poison) {
        String type = InboundEvent.typeOf(message);
        metrics.poison(type);
        log.warn("Poison message {} ({}) goes to the dead-letter queue: {}", InboundEvent.idOf(message), type,
                poison.getMessage());
        if (message.getHeaders().get(SOURCE_DATA) instanceof org.springframework.amqp.core.Message raw) {
            raw.getMessageProperties().setHeader(EventHeaders.POISON_REASON, poison.getMessage());
        }
        return poison;
    }

    private static void logRetry(InboundEvent event, int attempt, Duration backoff, RuntimeException failure) {
        // First failure and every tenth: an outage of minutes should not flood the log.
        if (attempt == 1 || attempt % 10 == 0) {
            log.warn("Event {} ({}) not applied (attempt {}), retrying in {} until the database is back: {}",
                    event.id(), event.type(), attempt, backoff, Failures.describe(failure));
        } else {
            log.debug("Event {} ({}) not applied (attempt {}): {}", event.id(), event.type(), attempt,
                    Failures.describe(failure));
        }
    }

    /** False when interrupted: the listener container is stopping. */
    private static boolean pause(Duration backoff) {
        try {
            Thread.sleep(backoff.toMillis());
            return true;
        } catch (InterruptedException e) {
            return false;
        }
    }

    /**
     * What the handlers subscribe to: for each exchange, the event types (routing keys) handled, in name order.
     */
    Map<String, Set<String>> subscriptions() {
        Map<String, Set<String>> subscriptions = new TreeMap<>();
        handlers.keySet().forEach(eventType -> subscriptions
                .computeIfAbsent(EventTypes.exchangeOf(EventTypes.forName(eventType).orElseThrow()),
                        exchange -> new TreeSet<>())
                .add(eventType));
        return subscriptions;
    }

    /** Each event record to the handler that handles it, directly or through its family. */
    private static Map<String, EventHandler<?>> byEventType(Collection<EventHandler<?>> handlers) {
        Map<String, EventHandler<?>> byType = new LinkedHashMap<>();
        for (EventHandler<?> handler : handlers) {
            for (Class<? extends DomainEvent> record : EventTypes.recordsOf(handler.eventType())) {
                EventHandler<?> other = byType.putIfAbsent(record.getSimpleName(), handler);
                if (other != null) {
                    throw new IllegalStateException("two handlers for " + record.getSimpleName() + ": " + other
                            + " and " + handler);
                }
            }
        }
        return Collections.unmodifiableMap(byType);
    }

    /** A delivery read, with its event and handler, remembering whether it was settled (acknowledged or handed back). */
    private static final class Pending {

        private final Message<byte[]> message;
        private final InboundEvent event;
        private final EventHandler<?> handler;
        private volatile boolean settled;

        Pending(Message<byte[]> message, InboundEvent event, EventHandler<?> handler) {
            this.message = message;
            this.event = event;
            this.handler = handler;
        }

        Message<byte[]> message() {
            return message;
        }

        InboundEvent event() {
            return event;
        }

        EventHandler<?> handler() {
            return handler;
        }

        void ack() {
            settled = true;
            Acknowledgement.of(message).ack();
        }

        void requeue() {
            settled = true;
            Acknowledgement.of(message).requeue();
        }

        void handBackUnlessSettled() {
            if (!settled) {
                requeue();
            }
        }
    }
}
