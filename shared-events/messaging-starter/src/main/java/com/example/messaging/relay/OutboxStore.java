package com.example.messaging.relay;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.springframework.r2dbc.core.DatabaseClient;

import com.example.messaging.outbox.OutboxWriter;

import io.r2dbc.spi.Readable;
import io.swagger.v3.oas.annotations.media.Schema;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The relay's SQL on {@code outbox_events}.
 *
 * <p>Claiming uses {@code FOR UPDATE SKIP LOCKED} rather than one active relay per service through
 * {@code pg_try_advisory_lock}: every replica of a service drains the outbox, a replica that dies
 * hands its rows over the moment its connection ends (PostgreSQL releases the row locks), and
 * there is no leader to elect, watch or fail over. The locks are held by the transaction that
 * publishes the batch and marks it sent, so at most {@code confirm-timeout} plus the publish time.
 *
 * <p>Per-aggregate order: a row is claimable only if no earlier row ({@code seq}) of its aggregate is
 * still unsent, whether that row is waiting, backing off, parked, or locked by another relay right
 * now (a locked row is still unsent to everyone else). So a batch holds at most one event per
 * aggregate, and an aggregate's next event is claimed only once the previous one is marked sent,
 * which happens after the broker confirmed it. A parked row therefore holds back the later events
 * of its aggregate until an operator requeues it: order over liveness, and the growing age of
 * those rows shows up in the {@code outbox} health indicator.
 */
final class OutboxStore {

    /**
     * What a publisher reads of a row {@code o}, with whether a later unsent row of its aggregate waits behind it
     * ({@link OutboxRow#hasLater()}).
     */
    private static final String ROWS = """
            select o.id, o.aggregate_type, o.aggregate_id, o.event_type, o.exchange, o.payload::text as payload,
                   o.traceparent, o.payload ->> 'occurred_at' as occurred_at, o.created_at, o.attempts,
                   o.refused_since,
                   exists (select 1
                             from outbox_events later
                            where later.aggregate_type = o.aggregate_type
                              and later.aggregate_id = o.aggregate_id
                              and later.seq > o.seq
                              and later.sent_at is null) as has_later
              from outbox_events o""";

    /** Row {@code o} is the earliest unsent row of its aggregate (and so unsent itself); see {@link #claim}. */
    private static final String EARLIEST_UNSENT = """
            o.seq = (select min(earlier.seq)
                       from outbox_events earlier
                      where earlier.aggregate_type = o.aggregate_type
                        and earlier.aggregate_id = o.aggregate_id
                        and earlier.sent_at is null)""";

    private static final String CLAIM = """
            %s
             where o.sent_at is null
               and o.parked_at is null
               and o.next_attempt_at <= now()
               and %s
             order by o.seq
             limit :limit
               for update of o skip locked""".formatted(ROWS, EARLIEST_UNSENT);

    private static final String HANDED_OFF = """
            %s
             where o.id = any(:ids)
               and o.parked_at is null
               and %s
             order by o.seq""".formatted(ROWS, EARLIEST_UNSENT);

    /** Makes the rows {@code %s} selects due now and wakes the sweep. */
    private static final String RELEASE = """
            with released as (
                update outbox_events set next_attempt_at = now()
                 where %s
                returning exchange)
            select pg_notify('%s', exchange) from (select distinct exchange from released) as exchanges""";

    private final DatabaseClient db;

    OutboxStore(DatabaseClient db) {
        this.db = db;
    }

    /**
     * Locks up to {@code limit} due rows until the surrounding transaction ends. Call it inside one. A row is due
     * when it is the earliest unsent row of its aggregate. That is asked as "is its seq the aggregate's smallest
     * unsent seq" (a subquery the planner always answers from the aggregate index) rather than "does no earlier
     * unsent row exist": planned on statistics from before a sudden backlog (the table small, nothing unsent), the
     * anti-join scanned every unsent row for every candidate, two seconds per batch at 20,000 rows. Each row says
     * whether a later unsent row of its aggregate waits behind it ({@link OutboxRow#hasLater()}), from the same
     * index: only then does sending it make more rows due at once.
     */
    Flux<OutboxRow> claim(int limit) {
        return db.sql(CLAIM)
                .bind("limit", limit)
                .map(OutboxStore::row)
                .all();
    }

    /**
     * The rows of {@code ids} a hand-off may publish, without locking them: unsent, not parked, and each the earliest
     * unsent row of its aggregate (as {@link #claim} asks it). A row is missing from the answer when the sweep sent it
     * already, or when an earlier row of its aggregate is still unsent: that one goes first, through the sweep. Not
     * "and sent_at is null": being its aggregate's earliest unsent row says so already, and with one generic plan
     * per statement (plan_cache_mode) PostgreSQL would scan the index of every unsent row instead of the primary
     * key (as in {@link #markSent}).
     */
    Flux<OutboxRow> handedOff(List<UUID> ids) {
        return db.sql(HANDED_OFF)
                .bind("ids", ids.toArray(UUID[]::new))
                .map(OutboxStore::row)
                .all();
    }

    /**
     * Ends the lease of handed-off rows a hand-off did not send (the broker did not confirm them, or they had to wait
     * for an earlier row of their aggregate) and wakes the sweep, which takes them from here with its retries,
     * backoff and parking. A row sent or parked meanwhile is left alone (asked with {@code coalesce} so that the one
     * generic plan looks the ids up in the primary key, not in the index of unsent rows).
     */
    Mono<Void> release(List<UUID> ids) {
        return db.sql(RELEASE.formatted("id = any(:ids) and coalesce(sent_at, parked_at) is null", OutboxWriter.CHANNEL))
                .bind("ids", ids.toArray(UUID[]::new))
                .fetch()
                .all()
                .then();
    }

    /**
     * Ends every lease of a handed-off row: unsent rows never tried ({@code last_error} is set by every failed attempt)
     * whose {@code next_attempt_at} lies ahead. Answers how many exchanges the released rows go to (none: nothing was
     * leased).
     */
    Mono<Long> releaseLeases() {
        return db.sql(RELEASE.formatted("""
                sent_at is null and parked_at is null and next_attempt_at > now() and last_error is null""",
                        OutboxWriter.CHANNEL))
                .fetch()
                .all()
                .count();
    }

    Mono<Long> markSent(List<UUID> ids) {
        if (ids.isEmpty()) {
            return Mono.just(0L);
        }
        // clock_timestamp(), not now(): now() is when the claiming transaction began, before the publish. The rows are
        // locked by the claim and unsent; coalesce keeps a first sent_at all the same. Not "and sent_at is null" in
        // the where clause: with one generic plan per statement (plan_cache_mode) PostgreSQL would then intersect the
        // primary key with the whole index of unsent rows instead of looking the ids up.
        return db.sql("update outbox_events set sent_at = coalesce(sent_at, clock_timestamp()) where id = any(:ids)")
                .bind("ids", ids.toArray(UUID[]::new))
                .fetch()
                .rowsUpdated();
    }

    /**
     * Records failed deliveries: the next attempt after {@code delay}, one more refusal where the broker refused
     * the row ({@code refused}), parked where asked. An outage is not the row's fault: it leaves the count alone
     * and ends the run of refusals ({@code refused_since}), so the time budget starts again after it. A run that
     * begins now begins at {@code publishedAt}, the time of the relay that published the batch.
     */
    Mono<Long> recordFailures(List<FailedAttempt> failures, Instant publishedAt) {
        if (failures.isEmpty()) {
            return Mono.just(0L);
        }
        return db.sql("""
                update outbox_events o
                   set attempts = o.attempts + case when f.refused then 1 else 0 end,
                       refused_since = case when f.refused then coalesce(o.refused_since, :published_at) end,
                       next_attempt_at = clock_timestamp() + f.delay_ms * interval '1 millisecond',
                       last_error = f.error,
                       parked_at = case when f.park then clock_timestamp() end
                  from unnest(:ids, :delays, :errors, :refusals, :parks) as f(id, delay_ms, error, refused, park)
                 where o.id = f.id""")
                .bind("ids", failures.stream().map(FailedAttempt::id).toArray(UUID[]::new))
                .bind("delays", failures.stream().map(f -> f.delay().toMillis()).toArray(Long[]::new))
                .bind("errors", failures.stream().map(FailedAttempt::error).toArray(String[]::new))
                .bind("refusals", failures.stream().map(FailedAttempt::refused).toArray(Boolean[]::new))
                .bind("parks", failures.stream().map(FailedAttempt::park).toArray(Boolean[]::new))
                .bind("published_at", publishedAt)
                .fetch()
                .rowsUpdated();
    }

    Mono<BacklogStats> stats() {
        return db.sql("""
                select count(*) filter (where parked_at is null) as pending,
                       count(*) filter (where parked_at is not null) as parked,
                       (extract(epoch from clock_timestamp() - min(created_at) filter (where parked_at is null))
                           * 1000)::bigint as oldest_age_ms
                  from outbox_events
                 where sent_at is null""")
                .map(r -> new BacklogStats(r.get("pending", Long.class), r.get("parked", Long.class),
                        r.get("oldest_age_ms", Long.class)))
                .one();
    }

    Flux<ParkedEvent> parked(int limit) {
        return db.sql("""
                select id, aggregate_type, aggregate_id, event_type, exchange, attempts, created_at, parked_at, last_error
                  from outbox_events
                 where parked_at is not null and sent_at is null
                 order by seq
                 limit :limit""")
                .bind("limit", limit)
                .map(r -> new ParkedEvent(r.get("id", UUID.class), r.get("aggregate_type", String.class),
                        r.get("aggregate_id", String.class), r.get("event_type", String.class),
                        r.get("exchange", String.class), r.get("attempts", Integer.class),
                        r.get("created_at", Instant.class), r.get("parked_at", Instant.class),
                        r.get("last_error", String.class)))
                .all();
    }

    /** Makes a parked row publishable again, from a fresh attempt count and time budget. */
    Mono<Long> requeue(UUID id) {
        return db.sql("""
                update outbox_events set parked_at = null, attempts = 0, refused_since = null, next_attempt_at = now()
                 where id = :id and parked_at is not null and sent_at is null""")
                .bind("id", id)
                .fetch()
                .rowsUpdated();
    }

    Mono<Long> requeueAll() {
        return db.sql("""
                update outbox_events set parked_at = null, attempts = 0, refused_since = null, next_attempt_at = now()
                 where parked_at is not null and sent_at is null""")
                .fetch()
                .rowsUpdated();
    }

    /** Deletes up to {@code limit} rows sent longer than {@code retention} ago; never an unsent or parked one. */
    Mono<Long> deleteSentBefore(Duration retention, int limit) {
        return db.sql("""
                delete from outbox_events
                 where id in (select id
                                from outbox_events
                               where sent_at is not null
                                 and sent_at < now() - :retention_ms * interval '1 millisecond'
                               order by sent_at
                               limit :limit)""")
                .bind("retention_ms", retention.toMillis())
                .bind("limit", limit)
                .fetch()
                .rowsUpdated();
    }

    private static OutboxRow row(Readable r) {
        return new OutboxRow(r.get("id", UUID.class), r.get("aggregate_type", String.class),
                r.get("aggregate_id", String.class), r.get("event_type", String.class), r.get("exchange", String.class),
                r.get("payload", String.class), r.get("traceparent", String.class),
                r.get("occurred_at", String.class), r.get("created_at", Instant.class),
                r.get("attempts", Integer.class), r.get("refused_since", Instant.class),
                Boolean.TRUE.equals(r.get("has_later", Boolean.class)));
    }

    /**
     * A failed delivery as stored: the error, when to try again, whether the broker refused the row (rather than
     * being unreachable, blocked or silent), and whether to give up (park).
     */
    record FailedAttempt(UUID id, Duration delay, String error, boolean refused, boolean park) {
    }

    /**
     * Unsent rows right now.
     *
     * @param oldestAgeMillis age of the oldest unsent row that is not parked, or null if there is none
     */
    record BacklogStats(long pending, long parked, Long oldestAgeMillis) {
    }

    /** A parked row as an operator sees it (the body of {@code GET /admin/outbox/parked}). */
    @Schema(name = "ParkedEvent", description = "An outbox event the broker kept refusing, no longer published")
    record ParkedEvent(
            @Schema(description = "The event id (AMQP message_id)") UUID id,
            String aggregateType,
            String aggregateId,
            String eventType,
            @Schema(description = "Where it is published") String exchange,
            @Schema(description = "Deliveries the broker refused") int attempts,
            Instant createdAt,
            Instant parkedAt,
            @Schema(nullable = true, description = "Why the last delivery failed") String lastError) {
    }
}
