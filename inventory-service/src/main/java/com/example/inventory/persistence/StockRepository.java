package com.example.inventory.persistence;

import java.util.List;
import java.util.Map;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;

import com.example.inventory.Stock;
import com.example.inventory.Units;

import io.r2dbc.spi.Readable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** SQL for stock rows. Rows are locked and updated in ascending sku id order only. */
@Repository
public class StockRepository {

    private final DatabaseClient db;

    StockRepository(DatabaseClient db) {
        this.db = db;
    }

    /**
     * Locks the existing rows of these skus until the transaction ends, in ascending sku id order
     * (PostgreSQL locks the rows as the sorted result produces them). Unknown skus have no row.
     */
    public Flux<Stock> lockInSkuOrder(List<Long> skuIds) {
        return db.sql("select sku_id, available, reserved, price_cents from stock where sku_id = any(:skuIds::bigint[]) "
                        + "order by sku_id for update")
                .bind("skuIds", skuIds.toArray(Long[]::new))
                .map(StockRepository::stock)
                .all();
    }

    /**
     * Moves the units from available to reserved, every sku in one statement; the caller holds the row locks (so the
     * order in which this statement updates the rows does not matter) and checked the counts.
     */
    public Mono<Void> reserve(Units units) {
        return db.sql("""
                        update stock set available = available - line.units, reserved = reserved + line.units,
                            updated_at = now()
                        from unnest(:skuIds::bigint[], :units::int[]) as line (sku_id, units)
                        where stock.sku_id = line.sku_id""")
                .bind("skuIds", units.perSku().keySet().toArray(Long[]::new))
                .bind("units", units.perSku().values().toArray(Integer[]::new))
                .then();
    }

    /**
     * Moves the units from reserved back to available. Nothing here can fail for the numbers: the counts are
     * bigint with no upper check (V3), so a release after the available units were set to the API's bound still
     * goes through, and reserved holds at least the units the caller's reservation put there. The caller holds no
     * stock lock yet: one statement per sku, in ascending sku id order, takes them in the one order every
     * transaction takes them in.
     */
    public Mono<Void> release(Units units) {
        return Flux.fromIterable(units.perSku().entrySet())
                .concatMap((Map.Entry<Long, Integer> line) -> db.sql("""
                                update stock set available = available + :units, reserved = reserved - :units,
                                    updated_at = now()
                                where sku_id = :skuId""")
                        .bind("skuId", line.getKey())
                        .bind("units", line.getValue())
                        .fetch().rowsUpdated())
                .then();
    }

    /** Sets available, and the price when given (else 0 for a new sku, unchanged for an existing one). */
    public Mono<Stock> set(long skuId, int available, Long priceCents) {
        DatabaseClient.GenericExecuteSpec upsert = db.sql("""
                insert into stock (sku_id, available, price_cents) values (:skuId, :available, coalesce(:price, 0))
                on conflict (sku_id) do update set available = excluded.available,
                    price_cents = coalesce(:price, stock.price_cents), updated_at = now()
                returning sku_id, available, reserved, price_cents""")
                .bind("skuId", skuId)
                .bind("available", available);
        upsert = priceCents == null ? upsert.bindNull("price", Long.class) : upsert.bind("price", priceCents);
        return upsert.map(StockRepository::stock).one();
    }

    public Mono<Stock> find(long skuId) {
        return db.sql("select sku_id, available, reserved, price_cents from stock where sku_id = :skuId")
                .bind("skuId", skuId)
                .map(StockRepository::stock)
                .one();
    }

    private static Stock stock(Readable row) {
        return new Stock(row.get("sku_id", Long.class), row.get("available", Long.class),
                row.get("reserved", Long.class), row.get("price_cents", Long.class));
    }
}
