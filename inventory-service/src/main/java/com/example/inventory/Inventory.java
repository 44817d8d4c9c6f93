package com.example.inventory;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.springframework.stereotype.Service;

import com.example.events.InventoryEvent;
import com.example.events.InventoryRejected;
import com.example.events.InventoryReleased;
import com.example.events.InventoryReserved;
import com.example.events.OrderCancelled;
import com.example.events.OrderCreated;
import com.example.inventory.persistence.ReservationRepository;
import com.example.inventory.persistence.StockRepository;

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
 */
@Service
public class Inventory {

    private final StockRepository stock;
    private final ReservationRepository reservations;

    Inventory(StockRepository stock, ReservationRepository reservations) {
        this.stock = stock;
        this.reservations = reservations;
    }

    /**
     * Reserves every unit of the order, or nothing. An order this service has already seen (including
     * one cancelled before it arrived) reserves nothing more; the answer then describes that reservation,
     * so a late create after a cancel gets {@link InventoryRejected}: nothing is held, nothing needs undoing.
     *
     * <p>Three statements for a new order: lock and read its stock, insert its reservation (which tells a new order
     * from one seen before, whose row is then read), move its units. An order seen before, rare, locks its stock for
     * nothing rather than every order paying a read first.
     */
    public Mono<InventoryEvent> reserve(OrderCreated order) {
        Units units = Units.of(order.skuIds());
        return stock.lockInSkuOrder(units.skuIds())
                .collectMap(Stock::skuId)
                .map(locked -> units.shortage(locked)
                        .map(reason -> new Reservation(order.orderId(), ReservationStatus.REJECTED, order.skuIds(), reason,
                                null))
                        .orElseGet(() -> new Reservation(order.orderId(), ReservationStatus.RESERVED, order.skuIds(), null,
                                units.amountCents(locked))))
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

    /**
     * In a batch of orders, before any of them is reserved: locks the stock of every sku they name, in ascending sku
     * id order, so that two batches in flight at once queue for their skus rather than each holding some the other
     * one wants ({@code LockAhead}).
     */
    public Mono<Void> lockStockFor(List<OrderCreated> orders) {
        List<Long> skuIds = orders.stream().flatMap(order -> order.skuIds().stream()).distinct().toList();
        return skuIds.isEmpty() ? Mono.empty() : stock.lockInSkuOrder(skuIds).then();
    }

    /**
     * Gives back what the order holds, once: only a RESERVED reservation moves (to RELEASED). A cancel
     * that arrives first leaves a tombstone. Every cancel is answered with {@link InventoryReleased}:
     * whatever happened before, nothing is held for the order any more.
     */
    public Mono<InventoryReleased> release(OrderCancelled cancel) {
        Reservation tombstone = new Reservation(cancel.orderId(), ReservationStatus.RELEASED, List.of(),
                "cancelled before the order arrived: " + cancel.reason(), null);
        return reservations.insertIfAbsent(tombstone)
                .flatMap(inserted -> inserted ? Mono.<Void>empty() : releaseHeld(cancel.orderId()))
                .then(Mono.fromSupplier(() -> new InventoryReleased(UUID.randomUUID(), cancel.orderId(), Instant.now())));
    }

    private Mono<Void> releaseHeld(long orderId) {
        return reservations.findForUpdate(orderId)
                .filter(reservation -> reservation.status() == ReservationStatus.RESERVED)
                .flatMap(reservation -> stock.release(Units.of(reservation.skuIds()))
                        .then(reservations.markReleased(orderId)));
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
}
