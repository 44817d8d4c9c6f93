package com.example.inventory;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Service;

import com.example.events.InventoryEvent;
import com.example.events.InventoryRejected;
import com.example.events.InventoryReleased;
import com.example.events.InventoryReserved;
import com.example.events.OrderCancelled;
import com.example.events.OrderCreated;
import com.example.inventory.persistence.ReservationRepository;
import com.example.inventory.persistence.StockRepository;
import com.example.messaging.inbox.LockAhead;

import reactor.core.publisher.Mono;

/**
 * Reserves and releases stock for orders. The event methods run inside the inbox transaction, so
 * their effect and their answer commit together, once per event.
 *
 * <p>No deadlocks: stock rows are only ever locked in ascending sku id order. The only other lock is
 * an order's reservation row. A create waits on it only while a cancel of the same order inserts its
 * tombstone, and that cancel takes no stock lock; a cancel locks stock only to release a reservation
 * that was committed earlier. So no two transactions of one event each can wait for each other in a cycle. A batch
 * of events locks the stock of all its orders first ({@link #lockStockFor}), so two batches queue for it; a cancel in
 * a batch may still lock stock after that, so two such batches could wait for each other, until PostgreSQL's deadlock
 * detection ends one of them (after 1 s) and the inbox applies its events one at a time.
 *
 * <p>In a batch, the stock read while locking ahead is kept for the batch ({@link Batch}): each order is decided
 * against it as the orders before it in the batch left it, with no statement of its own, and the batch's reservations
 * and what they took are written in two statements just before it commits (write-behind).
 */
@Service
public class Inventory {

    private final StockRepository stock;
    private final ReservationRepository reservations;
    private final boolean writeBehind;

    /**
     * @param writeBehind whether a batch decides its orders against the stock it locked ahead and writes their
     *                    reservations once, before it commits, rather than each order locking and reading its stock
     *                    again and writing its own reservation ({@code inventory.reservations.write-behind=false}, a
     *                    switch for measuring what it saves)
     */
    Inventory(StockRepository stock, ReservationRepository reservations,
            @Value("${inventory.reservations.write-behind:true}") boolean writeBehind) {
        this.stock = stock;
        this.reservations = reservations;
        this.writeBehind = writeBehind;
    }

    /**
     * Reserves every unit of the order, or nothing. An order this service has already seen (including
     * one cancelled before it arrived) reserves nothing more; the answer then describes that reservation,
     * so a late create after a cancel gets {@link InventoryRejected}: nothing is held, nothing needs undoing.
     *
     * <p>In a batch that writes behind, the order is decided against the batch's stock and its reservation waits for
     * the batch's write. An order seen before in an earlier transaction is found out only by that write, whose insert
     * then skips its row: the batch rolls back and its events go one at a time, each answered as below. That is rare
     * (a cancel that overtook its order, a second OrderCreated under another event id), so no order pays a read for it.
     */
    public Mono<InventoryEvent> reserve(OrderCreated order) {
        return LockAhead.kept(Batch.class)
                .map(batch -> answer(order, batch.reserve(order)))
                .switchIfEmpty(Mono.defer(() -> reserveAlone(order)));
    }

    /**
     * Three statements for a new order on its own: lock and read its stock, insert its reservation (which tells a new
     * order from one seen before, whose row is then read), move its units. An order seen before, rare, locks its stock
     * for nothing rather than every order paying a read first.
     */
    private Mono<InventoryEvent> reserveAlone(OrderCreated order) {
        Units units = Units.of(order.skuIds());
        return stock.lockInSkuOrder(units.skuIds())
                .collectMap(Stock::skuId)
                .map(locked -> decide(order, units, locked))
                .flatMap(decided -> reservations.insertIfAbsent(decided).flatMap(inserted -> {
                    if (!inserted) {
                        // Seen before, or a cancel of this order committed its tombstone while we were deciding.
                        return reservations.find(order.orderId());
                    }
                    return decided.status() == ReservationStatus.RESERVED ? stock.reserve(units).thenReturn(decided)
                            : Mono.just(decided);
                }))
                .map(reservation -> answer(order, reservation));
    }

    /** All the order's units, or its rejection with the first sku that falls short, against this stock. */
    private static Reservation decide(OrderCreated order, Units units, Map<Long, Stock> stock) {
        return units.shortage(stock)
                .map(reason -> new Reservation(order.orderId(), ReservationStatus.REJECTED, order.skuIds(), reason,
                        null))
                .orElseGet(() -> new Reservation(order.orderId(), ReservationStatus.RESERVED, order.skuIds(), null,
                        units.amountCents(stock)));
    }

    /**
     * In a batch of orders, before any of them is reserved: locks the stock of every sku they name, in ascending sku
     * id order, so that two batches in flight at once queue for their skus rather than each holding some the other
     * one wants ({@code LockAhead}). Writing behind, it keeps what it read for the batch's orders.
     */
    public Mono<Void> lockStockFor(List<OrderCreated> orders) {
        List<Long> skuIds = orders.stream().flatMap(order -> order.skuIds().stream()).distinct().toList();
        if (skuIds.isEmpty()) {
            return Mono.empty();
        }
        if (!writeBehind) {
            return stock.lockInSkuOrder(skuIds).then();
        }
        return stock.lockInSkuOrder(skuIds)
                .collectMap(Stock::skuId)
                .flatMap(locked -> LockAhead.keep(Batch.class, new Batch(locked),
                        batch -> batch.write(reservations, stock)));
    }

    /**
     * Gives back what the order holds, once: only a RESERVED reservation moves (to RELEASED). A cancel
     * that arrives first leaves a tombstone. Every cancel is answered with {@link InventoryReleased}:
     * whatever happened before, nothing is held for the order any more.
     */
    public Mono<InventoryReleased> release(OrderCancelled cancel) {
        long orderId = cancel.orderId();
        return LockAhead.kept(Batch.class)
                .defaultIfEmpty(Batch.none())
                .flatMap(batch -> batch.releaseUnwritten(orderId) ? Mono.<Void>empty() : releaseWritten(cancel, batch))
                .then(Mono.fromSupplier(() -> new InventoryReleased(UUID.randomUUID(), orderId, Instant.now())));
    }

    /** The order's reservation as the database has it: a tombstone when it has none, else its units back, once. */
    private Mono<Void> releaseWritten(OrderCancelled cancel, Batch batch) {
        Reservation tombstone = new Reservation(cancel.orderId(), ReservationStatus.RELEASED, List.of(),
                "cancelled before the order arrived: " + cancel.reason(), null);
        return reservations.insertIfAbsent(tombstone)
                .flatMap(inserted -> inserted ? Mono.fromRunnable(() -> batch.written(tombstone))
                        : releaseHeld(cancel.orderId(), batch));
    }

    private Mono<Void> releaseHeld(long orderId, Batch batch) {
        return reservations.findForUpdate(orderId)
                .filter(reservation -> reservation.status() == ReservationStatus.RESERVED)
                .flatMap(reservation -> {
                    Units units = Units.of(reservation.skuIds());
                    return stock.release(units)
                            .then(reservations.markReleased(orderId))
                            .then(Mono.fromRunnable(() -> batch.released(units)));
                });
    }

    /**
     * Sets the units free to reserve, and the unit price when one is given (a new sku without one costs 0); what is
     * reserved stays as it is, and so does what reservations already made cost.
     */
    public Mono<Stock> setStock(long skuId, int available, Long priceCents) {
        return stock.set(skuId, available, priceCents);
    }

    public Mono<Stock> stock(long skuId) {
        return stock.find(skuId);
    }

    public Mono<Reservation> reservation(long orderId) {
        return reservations.find(orderId);
    }

    private static InventoryEvent answer(OrderCreated order, Reservation reservation) {
        UUID eventId = UUID.randomUUID();
        Instant now = Instant.now();
        return switch (reservation.status()) {
            case RESERVED -> new InventoryReserved(eventId, order.orderId(), reservation.skuIds(),
                    reservation.amountCents(), now);
            case REJECTED -> new InventoryRejected(eventId, order.orderId(), reservation.reason(), now);
            case RELEASED -> new InventoryRejected(eventId, order.orderId(),
                    "order " + order.orderId() + " was cancelled: nothing is reserved for it", now);
        };
    }

    /**
     * The orders of one inbox transaction that writes behind: the stock its lock-ahead locked and read, as the events
     * applied so far left it, and the reservations they decided, to be written before it commits. The inbox applies a
     * batch's events one after the other, never two at once (synchronized: not always on the same thread).
     */
    private static final class Batch {

        private final Map<Long, Stock> locked;
        private final Map<Long, Reservation> unwritten = new LinkedHashMap<>();
        private final Map<Long, Reservation> written = new LinkedHashMap<>();

        Batch(Map<Long, Stock> locked) {
            this.locked = new LinkedHashMap<>(locked);
        }

        /** No batch: a cancel applied on its own, whose reservation is only ever in the database. */
        static Batch none() {
            return new Batch(Map.of());
        }

        /**
         * The order's reservation: the one this batch decided or wrote for it already (a second OrderCreated, a
         * tombstone a cancel before it left), else all its units against the stock as it stands now, or its rejection.
         */
        synchronized Reservation reserve(OrderCreated order) {
            Reservation seen = unwritten.getOrDefault(order.orderId(), written.get(order.orderId()));
            if (seen != null) {
                return seen;
            }
            Units units = Units.of(order.skuIds());
            Reservation decided = decide(order, units, locked);
            if (decided.status() == ReservationStatus.RESERVED) {
                move(units, -1);
            }
            unwritten.put(order.orderId(), decided);
            return decided;
        }

        /**
         * A cancel of an order this batch decided: its units go back to the batch's stock if it holds any, and its
         * reservation is written as released. False when the batch has not decided the order.
         */
        synchronized boolean releaseUnwritten(long orderId) {
            Reservation reservation = unwritten.get(orderId);
            if (reservation == null) {
                return false;
            }
            if (reservation.status() == ReservationStatus.RESERVED) {
                move(Units.of(reservation.skuIds()), +1);
                unwritten.put(orderId, new Reservation(orderId, ReservationStatus.RELEASED, reservation.skuIds(),
                        reservation.reason(), reservation.amountCents()));
            }
            return true;
        }

        /** A row this transaction wrote at once (a tombstone). */
        synchronized void written(Reservation reservation) {
            written.put(reservation.orderId(), reservation);
        }

        /** Units a reservation written before gave back, in the database, in this transaction. */
        synchronized void released(Units units) {
            move(units, +1);
        }

        /** Units from available to reserved ({@code -1}) or back ({@code +1}), for the skus this batch read. */
        private void move(Units units, int toAvailable) {
            units.perSku().forEach((skuId, count) -> locked.computeIfPresent(skuId, (id, row) -> new Stock(id,
                    row.available() + toAvailable * count, row.reserved() - toAvailable * count, row.priceCents())));
        }

        /**
         * The batch's reservations in one statement, then the units the reserved ones take in one more. A reservation
         * the insert skips belongs to an order seen before this transaction: its answer is already wrong, so the
         * batch fails, rolls back, and its events are applied one at a time.
         */
        synchronized Mono<Void> write(ReservationRepository reservations, StockRepository stock) {
            if (unwritten.isEmpty()) {
                return Mono.empty();
            }
            List<Reservation> rows = List.copyOf(unwritten.values());
            Units taken = Units.of(rows.stream().filter(row -> row.status() == ReservationStatus.RESERVED)
                    .flatMap(row -> row.skuIds().stream()).toList());
            return reservations.insertAll(rows).collect(Collectors.toSet()).flatMap(inserted -> {
                List<Long> seenBefore = rows.stream().map(Reservation::orderId).filter(id -> !inserted.contains(id))
                        .toList();
                if (!seenBefore.isEmpty()) {
                    return Mono.error(new IllegalStateException("orders " + seenBefore + " have a reservation from "
                            + "before this batch; its events are to be applied one at a time"));
                }
                return taken.perSku().isEmpty() ? Mono.<Void>empty() : stock.reserve(taken);
            });
        }
    }
}
