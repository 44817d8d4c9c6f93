package com.example.inventory;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The units an order asks for, per sku (a repeated sku id is one more unit), in ascending sku order:
 * every transaction that locks stock rows locks them in that order, so two of them can never wait
 * for each other in a cycle (no deadlocks).
 */
public final class Units {

    private final SortedMap<Long, Integer> perSku;

    private Units(SortedMap<Long, Integer> perSku) {
        this.perSku = Collections.unmodifiableSortedMap(perSku);
    }

    public static Units of(List<Long> skuIds) {
        SortedMap<Long, Integer> perSku = new TreeMap<>();
        skuIds.forEach(skuId -> perSku.merge(skuId, 1, Integer::sum));
        return new Units(perSku);
    }

    /** Sku id to units, in ascending sku id order. */
    public SortedMap<Long, Integer> perSku() {
        return perSku;
    }

    public List<Long> skuIds() {
        return List.copyOf(perSku.keySet());
    }

    /** What the units cost at these stock rows' prices (every sku has a row once {@link #shortage} found none). */
    long amountCents(Map<Long, Stock> stock) {
        long amount = 0;
        for (Map.Entry<Long, Integer> wanted : perSku.entrySet()) {
            amount = Math.addExact(amount, Math.multiplyExact(stock.get(wanted.getKey()).priceCents(),
                    (long) wanted.getValue()));
        }
        return amount;
    }

    /**
     * The first sku (in sku order) whose available units do not cover the request, described for the
     * rejection; empty when every unit can be reserved. A sku without a stock row has no units.
     */
    Optional<String> shortage(Map<Long, Stock> stock) {
        for (Map.Entry<Long, Integer> wanted : perSku.entrySet()) {
            Stock row = stock.get(wanted.getKey());
            long available = row == null ? 0 : row.available();
            if (available < wanted.getValue()) {
                return Optional.of("insufficient stock for sku " + wanted.getKey() + ": " + wanted.getValue()
                        + " requested, " + available + " available");
            }
        }
        return Optional.empty();
    }
}
