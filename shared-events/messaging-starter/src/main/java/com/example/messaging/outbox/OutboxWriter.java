package com.example.messaging.outbox;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.util.ConcurrentLruCache;

import com.example.events.DomainEvent;

import io.r2dbc.postgresql.codec.Json;
import reactor.core.publisher.Mono;

/**
 * Appends an event to the service's {@code outbox_events} table and wakes the relay. Call it inside
 * the transaction that makes the business change, or make the change and the event one statement
 * ({@link #appendWith}): the event then exists if and only if the change does. The notification is
 * delivered by PostgreSQL only when that transaction commits. A writer that publishes its rows itself after the commit
 * (the relay's {@code OutboxHandOff}) passes a {@code handOffLease}: the rows are written without the notification and
 * the sweep leaves them alone for that long.
 */
public final class OutboxWriter {

    /** The LISTEN/NOTIFY channel the relay listens on. */
    public static final String CHANNEL = "outbox_events";

    /** The row and its notification (sent at commit) in one statement: one round trip. */
    private static final Statement APPEND = new Statement("""
            with appended as (
                insert into outbox_events (id, aggregate_type, aggregate_id, event_type, exchange, payload, traceparent,
                                           next_attempt_at)
                values (:outboxId, :outboxAggregateType, :outboxAggregateId, :outboxEventType, :outboxExchange,
                        :outboxPayload, :outboxTraceparent, {due})
                returning exchange)
            select {notify} from appended""");

    /**
     * Several rows and their notifications in one statement, in the order given (the identity {@code seq} follows the
     * {@code order by}), one notification per exchange.
     */
    private static final Statement APPEND_ALL = new Statement("""
            with appended as (
                insert into outbox_events (id, aggregate_type, aggregate_id, event_type, exchange, payload, traceparent,
                                           next_attempt_at)
                select id, aggregate_type, aggregate_id, event_type, exchange, payload::jsonb, traceparent, {due}
                  from unnest(:outboxIds::uuid[], :outboxAggregateTypes::text[], :outboxAggregateIds::text[],
                              :outboxEventTypes::text[], :outboxExchanges::text[], :outboxPayloads::text[],
                              :outboxTraceparents::text[])
                       with ordinality as event (id, aggregate_type, aggregate_id, event_type, exchange, payload,
                                                 traceparent, position)
                 order by position
                returning exchange)
            select {notify} from (select distinct exchange from appended) as exchanges""");

    /**
     * The caller's {@code WITH} steps, then the outbox row of the aggregate each row of their step {@code source} made,
     * then its notification; the statement answers the rows of the caller's step named fourth ({@code source} itself,
     * unless the caller says otherwise). The row's {@code aggregate_id} and the
     * payload's id field are the aggregate's id, {@code source}'s column {@code idColumn}. The notification is
     * evaluated in a one-row aggregate joined to the answer, so that the statement cannot leave it out.
     */
    private static final Statement APPEND_WITH = new Statement("""
            with %1$s,
            outbox_appended as (
                insert into outbox_events (id, aggregate_type, aggregate_id, event_type, exchange, payload, traceparent,
                                           next_attempt_at)
                select :outboxId, :outboxAggregateType, %2$s.%3$s::text, :outboxEventType, :outboxExchange,
                       jsonb_set(:outboxPayload::jsonb, :outboxIdPath::text[], to_jsonb(%2$s.%3$s)), :outboxTraceparent,
                       {due}
                  from %2$s
                returning exchange)
            select %4$s.*
              from %4$s
             cross join (select count({notify}) as notified
                           from (select distinct exchange from outbox_appended) as exchanges) as notification""");

    /**
     * The caller's {@code WITH} steps, then for each row of their step {@code source} the outbox row of the event given
     * under that row's key (its column {@code keyColumn} as text), in the order the events are given, then one
     * notification per exchange, as {@link #APPEND_WITH}. Events whose key no row of {@code source} has are not
     * written.
     */
    private static final Statement APPEND_EACH_WITH = new Statement("""
            with %1$s,
            outbox_appended as (
                insert into outbox_events (id, aggregate_type, aggregate_id, event_type, exchange, payload, traceparent,
                                           next_attempt_at)
                select event.id, event.aggregate_type, event.aggregate_id, event.event_type, event.exchange,
                       event.payload::jsonb, event.traceparent, {due}
                  from unnest(:outboxKeys::text[], :outboxIds::uuid[], :outboxAggregateTypes::text[],
                              :outboxAggregateIds::text[], :outboxEventTypes::text[], :outboxExchanges::text[],
                              :outboxPayloads::text[], :outboxTraceparents::text[])
                       with ordinality as event (key, id, aggregate_type, aggregate_id, event_type, exchange, payload,
                                                 traceparent, position)
                  join %2$s on %2$s.%3$s::text = event.key
                 order by event.position
                returning exchange)
            select %2$s.*
              from %2$s
             cross join (select count({notify}) as notified
                           from (select distinct exchange from outbox_appended) as exchanges) as notification""");

    /**
     * One statement in its two forms. Notified: the rows are due at once and the relay's sweep is woken at commit.
     * Handed off: the writer hands the rows to its own relay once the statement's transaction has committed (the
     * relay's {@code OutboxHandOff}, by the events' ids), so they are written with {@code next_attempt_at} a lease
     * ahead, which the sweep waits for, and without the notification, which would only wake the sweep for nothing. A
     * data-modifying step runs whether or not the answer reads it.
     */
    private record Statement(String notified, String handedOff) {

        Statement(String template) {
            this(template.replace("{due}", "now()").replace("{notify}", "pg_notify('" + CHANNEL + "', exchange)"),
                    template.replace("{due}", "now() + :outboxLeaseMillis * interval '1 millisecond'")
                            .replace("{notify}", "exchange"));
        }
    }

    /** A statement's text in one form ({@code template}) with the caller's parts put in. */
    private record Shape(String template, List<String> parts) {

        String sql() {
            return template.formatted(parts.toArray());
        }
    }

    /**
     * How many shapes' text is kept. A caller passes the same steps on every call, and putting them into the template
     * again each time (the format parsed, kilobytes copied) was the dearest string work of a request; bounded should a
     * caller build its steps anew per call.
     */
    private static final int SHAPES_KEPT = 64;

    private final DatabaseClient db;
    private final ConcurrentLruCache<Shape, String> statements = new ConcurrentLruCache<>(SHAPES_KEPT, Shape::sql);

    public OutboxWriter(DatabaseClient db) {
        this.db = db;
    }

    /** Appends one of this system's own events (see {@link OutboundEvent#of}). */
    public Mono<Void> append(DomainEvent event) {
        return append(OutboundEvent.of(event));
    }

    public Mono<Void> append(OutboundEvent event) {
        return append(event, null);
    }

    /**
     * Appends an event the caller hands to its relay once its transaction has committed (the relay's
     * {@code OutboxHandOff}, with the event's id): the row is written with {@code next_attempt_at} {@code handOffLease}
     * ahead and without a notification, so the relay's sweep takes it only if the hand-off has not sent it by then.
     * Without a lease ({@code null}) it is {@link #append(OutboundEvent)}. The same holds for every method here that
     * takes a {@code handOffLease}.
     */
    public Mono<Void> append(OutboundEvent event, Duration handOffLease) {
        return bindEvent(sql(APPEND, handOffLease), event)
                .bind("outboxAggregateId", event.aggregateId())
                .bind("outboxPayload", Json.of(event.payload()))
                .then();
    }

    /**
     * Appends an event in the caller's own statement, for an aggregate that statement inserts: the outbox row and its
     * notification become further steps of the caller's data-modifying {@code WITH}, one row for each row that its
     * step {@code source} returns, none when it returns none (an insert that met a conflict, say). A statement is
     * atomic on its own, so run outside a transaction the aggregate and its event commit together in one round trip,
     * without the {@code BEGIN} and {@code COMMIT} a transaction around two statements costs; its answer arrives after
     * the commit.
     * <p>
     * The aggregate's id is the database's to give (an identity column), so it is not known when the event is
     * written: {@code source}'s column {@code idColumn} becomes the row's {@code aggregate_id} and the payload's
     * top-level field {@code idField}, in place of what {@code event} has there. The statement answers {@code source}'s
     * rows; the caller binds its own parameters (none of them named {@code outbox...}) and maps the rows.
     *
     * @param steps    the caller's {@code WITH} steps, without the {@code WITH}, one of them named {@code source}
     * @param source   the step returning the inserted aggregates
     * @param idColumn the column of {@code source} holding the aggregate's id
     * @param idField  the payload's field for the aggregate's id, e.g. {@code order_id}
     */
    public DatabaseClient.GenericExecuteSpec appendWith(String steps, String source, String idColumn, String idField,
            OutboundEvent event) {
        return appendWith(steps, source, idColumn, idField, event, null);
    }

    /** {@link #appendWith(String, String, String, String, OutboundEvent)}, handed off for a lease (see above). */
    public DatabaseClient.GenericExecuteSpec appendWith(String steps, String source, String idColumn, String idField,
            OutboundEvent event, Duration handOffLease) {
        return appendWith(steps, source, idColumn, idField, event, handOffLease, source);
    }

    /**
     * {@link #appendWith(String, String, String, String, OutboundEvent, Duration)}, the statement answering the rows
     * of the caller's step {@code answer} instead of {@code source}'s: a step that reads {@code source} and the tables
     * (as they were when the statement started: all its steps see one snapshot), to answer something else where
     * {@code source} returns nothing, say.
     */
    public DatabaseClient.GenericExecuteSpec appendWith(String steps, String source, String idColumn, String idField,
            OutboundEvent event, Duration handOffLease, String answer) {
        return bindEvent(sql(APPEND_WITH, handOffLease, steps, source, idColumn, answer), event)
                .bind("outboxPayload", event.payload())
                .bind("outboxIdPath", new String[] { idField });
    }

    /**
     * Appends events in the caller's own statement, each for one of the rows its step {@code source} returns, as
     * {@link #appendWith} does for one: an event goes in under its key, and is written only if {@code source} returns
     * a row whose column {@code keyColumn}, as text, is that key (a row the caller's guarded update did not change
     * announces nothing). The events keep their own aggregate ids; at most one row of {@code source} may have a key.
     * The statement answers {@code source}'s rows; the caller binds its own parameters (none of them named
     * {@code outbox...}) and maps the rows.
     *
     * @param steps     the caller's {@code WITH} steps, without the {@code WITH}, one of them named {@code source}
     * @param source    the step returning the rows the events announce
     * @param keyColumn the column of {@code source} an event's key names a row by
     * @param events    the events by key, written in this map's iteration order
     */
    public DatabaseClient.GenericExecuteSpec appendEachWith(String steps, String source, String keyColumn,
            Map<String, OutboundEvent> events) {
        return appendEachWith(steps, source, keyColumn, events, null);
    }

    /** {@link #appendEachWith(String, String, String, Map)}, handed off for a lease (see above). */
    public DatabaseClient.GenericExecuteSpec appendEachWith(String steps, String source, String keyColumn,
            Map<String, OutboundEvent> events, Duration handOffLease) {
        List<Map.Entry<String, OutboundEvent>> entries = List.copyOf(events.entrySet());
        return bindEvents(sql(APPEND_EACH_WITH, handOffLease, steps, source, keyColumn),
                entries.stream().map(Map.Entry::getValue).toList())
                .bind("outboxKeys", entries.stream().map(Map.Entry::getKey).toArray(String[]::new));
    }

    /** The statement in the form a {@code handOffLease} asks for (null: notified), its lease bound. */
    private DatabaseClient.GenericExecuteSpec sql(Statement statement, Duration handOffLease, String... parts) {
        String template = handOffLease == null ? statement.notified() : statement.handedOff();
        String sql = parts.length == 0 ? template : statements.get(new Shape(template, List.of(parts)));
        return handOffLease == null ? db.sql(sql) : db.sql(sql).bind("outboxLeaseMillis", handOffLease.toMillis());
    }

    /** The event's fields {@link #append} and {@link #appendWith} both bind; the payload each binds its own way. */
    private static DatabaseClient.GenericExecuteSpec bindEvent(DatabaseClient.GenericExecuteSpec statement,
            OutboundEvent event) {
        DatabaseClient.GenericExecuteSpec bound = statement
                .bind("outboxId", event.id())
                .bind("outboxAggregateType", event.aggregateType())
                .bind("outboxEventType", event.type())
                .bind("outboxExchange", event.destination());
        return event.traceparent() == null ? bound.bindNull("outboxTraceparent", String.class)
                : bound.bind("outboxTraceparent", event.traceparent());
    }

    /**
     * Appends several events in one statement (one round trip), in the order given: what {@link #append} does for
     * each, in one go.
     */
    public Mono<Void> appendAll(List<OutboundEvent> events) {
        return appendAll(events, null);
    }

    /** {@link #appendAll(List)}, handed off for a lease (see {@link #append(OutboundEvent, Duration)}). */
    public Mono<Void> appendAll(List<OutboundEvent> events, Duration handOffLease) {
        if (events.isEmpty()) {
            return Mono.empty();
        }
        if (events.size() == 1) {
            return append(events.get(0), handOffLease);
        }
        return bindEvents(sql(APPEND_ALL, handOffLease), events).then();
    }

    /** The fields of several events, as arrays in the order given, for a statement that unnests them. */
    private static DatabaseClient.GenericExecuteSpec bindEvents(DatabaseClient.GenericExecuteSpec statement,
            List<OutboundEvent> events) {
        return statement
                .bind("outboxIds", events.stream().map(OutboundEvent::id).toArray(UUID[]::new))
                .bind("outboxAggregateTypes", events.stream().map(OutboundEvent::aggregateType).toArray(String[]::new))
                .bind("outboxAggregateIds", events.stream().map(OutboundEvent::aggregateId).toArray(String[]::new))
                .bind("outboxEventTypes", events.stream().map(OutboundEvent::type).toArray(String[]::new))
                .bind("outboxExchanges", events.stream().map(OutboundEvent::destination).toArray(String[]::new))
                .bind("outboxPayloads", events.stream().map(OutboundEvent::payload).toArray(String[]::new))
                .bind("outboxTraceparents", events.stream().map(OutboundEvent::traceparent).toArray(String[]::new));
    }
}
