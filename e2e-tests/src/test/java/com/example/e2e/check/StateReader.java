package com.example.e2e.check;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

import com.example.e2e.check.SystemState.Coupon;
import com.example.e2e.check.SystemState.Order;
import com.example.e2e.check.SystemState.OutboxRow;
import com.example.e2e.check.SystemState.Queue;
import com.example.e2e.check.SystemState.Reservation;
import com.example.e2e.check.SystemState.Stock;
import com.example.e2e.topology.BrokerNode;
import com.example.e2e.topology.DatabaseNode;
import com.example.e2e.topology.Service;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the system's state without changing it: read-only SQL against each service's database
 * (the contract's tables and each service's own), and queue depths from the broker's management API.
 */
public final class StateReader {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final DatabaseNode database;
    private final BrokerNode broker;
    /** The payment provider's stand-in: its {@code /ledger} is what money moved. */
    private final Supplier<URI> provider;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();

    public StateReader(DatabaseNode database, BrokerNode broker, Supplier<URI> provider) {
        this.database = database;
        this.broker = broker;
        this.provider = provider;
    }

    public SystemState read() {
        Map<Service, List<OutboxRow>> outbox = new EnumMap<>(Service.class);
        Map<Service, Map<UUID, String>> processed = new EnumMap<>(Service.class);
        for (Service service : Service.ours()) {
            outbox.put(service, query(service, """
                    select id, aggregate_type, aggregate_id, event_type, exchange, sent_at is not null as sent,
                           parked_at is not null as parked
                    from outbox_events""", StateReader::outboxRows));
            processed.put(service, query(service, "select event_id, event_type from processed_events", rows -> {
                Map<UUID, String> ids = new HashMap<>();
                while (rows.next()) {
                    ids.put(rows.getObject(1, UUID.class), rows.getString(2));
                }
                return ids;
            }));
        }
        return new SystemState(orders(), outbox, processed, stock(), reservations(), coupons(), redemptions(),
                assessments(), queues(), prices(), money());
    }

    /** What keeps the system from being quiet, or an empty string when nothing does. */
    public String pending() {
        List<String> pending = new ArrayList<>();
        try {
            for (Service service : Service.ours()) {
                long unsent = query(service, "select count(*) from outbox_events where sent_at is null and parked_at is null",
                        StateReader::count);
                if (unsent > 0) {
                    pending.add(unsent + " unsent in " + service);
                }
            }
            long open = query(Service.ORDER, "select count(*) from orders where status = 'CREATED'", StateReader::count);
            if (open > 0) {
                pending.add(open + " orders CREATED");
            }
            long unsettled = query(Service.PAYMENT, "select count(*) from payments where status in ('CREATED', "
                    + "'PROCESSING') or (status = 'SUCCEEDED' and cancel_requested)", StateReader::count);
            if (unsettled > 0) {
                pending.add(unsettled + " payments to charge, resolve or refund");
            }
            for (Queue queue : queues()) {
                if (!queue.isDeadLetterQueue() && (queue.messages() > 0 || queue.unacknowledged() > 0)) {
                    pending.add(queue.name() + " " + queue.messages() + "+" + queue.unacknowledged());
                }
            }
        } catch (RuntimeException e) {
            pending.add("cannot read: " + e.getMessage());
        }
        return String.join(", ", pending);
    }

    /** Outbox rows waiting to be published, in all services; -1 when the databases cannot be read. */
    public long unsentRows() {
        try {
            long unsent = 0;
            for (Service service : Service.ours()) {
                unsent += query(service, "select count(*) from outbox_events where sent_at is null and parked_at is null",
                        StateReader::count);
            }
            return unsent;
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /** Deliveries each queue's broker-side statistics flag as redelivered (since the broker last started). */
    public Map<String, Long> redeliveries() {
        Map<String, Long> redeliveries = new LinkedHashMap<>();
        for (JsonNode queue : managementQueues()) {
            redeliveries.put(queue.path("name").asString(), queue.path("message_stats").path("redeliver").asLong(0));
        }
        return redeliveries;
    }

    public List<Queue> queues() {
        List<Queue> queues = new ArrayList<>();
        for (JsonNode queue : managementQueues()) {
            queues.add(new Queue(queue.path("name").asString(), queue.path("messages_ready").asLong(0),
                    queue.path("messages_unacknowledged").asLong(0)));
        }
        return queues;
    }

    /** Every order, as order-service holds it. */
    public List<Order> orders() {
        return query(Service.ORDER, """
                select o.id, o.user_id, o.idempotency_key, o.status, o.inventory_step, o.coupon_step, o.risk_step,
                       o.payment_step, o.coupon_code, o.rejection_reason,
                       array_remove(array_agg(l.sku_id order by l.line_no), null) as sku_ids
                from orders o left join order_lines l on l.order_id = o.id
                group by o.id
                order by o.id""", rows -> {
            List<Order> orders = new ArrayList<>();
            while (rows.next()) {
                orders.add(new Order(rows.getLong("id"), rows.getLong("user_id"),
                        rows.getObject("idempotency_key", UUID.class), rows.getString("status"),
                        rows.getString("inventory_step"), rows.getString("coupon_step"), rows.getString("risk_step"),
                        rows.getString("payment_step"), rows.getString("coupon_code"), rows.getString("rejection_reason"), longs(rows.getArray("sku_ids"))));
            }
            return orders;
        });
    }

    /** Sku prices, coupon discounts and the amounts of the orders that have one. */
    private SystemState.Prices prices() {
        Map<Long, Long> unitPrices = query(Service.INVENTORY, "select sku_id, price_cents from stock", rows -> {
            Map<Long, Long> prices = new HashMap<>();
            while (rows.next()) {
                prices.put(rows.getLong(1), rows.getLong(2));
            }
            return prices;
        });
        Map<String, Integer> discounts = query(Service.COUPON, "select code, discount_percent from coupons", rows -> {
            Map<String, Integer> percent = new HashMap<>();
            while (rows.next()) {
                percent.put(rows.getString(1), rows.getInt(2));
            }
            return percent;
        });
        Map<Long, Long> amounts = query(Service.ORDER,
                "select id, amount_cents from orders where amount_cents is not null", rows -> {
                    Map<Long, Long> amount = new HashMap<>();
                    while (rows.next()) {
                        amount.put(rows.getLong(1), rows.getLong(2));
                    }
                    return amount;
                });
        return new SystemState.Prices(unitPrices, discounts, amounts);
    }

    /** The provider's ledger, over HTTP as a checker outside the system sees it, and payment-service's payments. */
    private SystemState.Money money() {
        URI uri = provider.get().resolve("/ledger");
        JsonNode ledger;
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                    .build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("GET " + uri + " answered " + response.statusCode());
            }
            ledger = JSON.readTree(response.body());
        } catch (IOException e) {
            throw new IllegalStateException("the payment simulator does not answer at " + uri, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        List<SystemState.Charge> charges = new ArrayList<>();
        ledger.path("charges").forEach(charge -> charges.add(new SystemState.Charge(charge.path("charge_id").asString(),
                charge.path("reference").asString(), charge.path("amount_cents").asLong(),
                charge.path("status").asString())));
        List<SystemState.Refund> refunds = new ArrayList<>();
        ledger.path("refunds").forEach(refund -> refunds.add(new SystemState.Refund(refund.path("refund_id").asString(),
                refund.path("charge_id").asString(), refund.path("amount_cents").asLong())));
        Map<Long, String> payments = query(Service.PAYMENT, "select order_id, status from payments", rows -> {
            Map<Long, String> statuses = new HashMap<>();
            while (rows.next()) {
                statuses.put(rows.getLong(1), rows.getString(2));
            }
            return statuses;
        });
        return new SystemState.Money(charges, refunds, payments);
    }

    private Map<Long, Stock> stock() {
        return query(Service.INVENTORY, "select sku_id, available, reserved from stock", rows -> {
            Map<Long, Stock> stock = new HashMap<>();
            while (rows.next()) {
                stock.put(rows.getLong(1), new Stock(rows.getLong(1), rows.getInt(2), rows.getInt(3)));
            }
            return stock;
        });
    }

    private Map<Long, Reservation> reservations() {
        return query(Service.INVENTORY, "select order_id, status, sku_ids from reservations", rows -> {
            Map<Long, Reservation> reservations = new HashMap<>();
            while (rows.next()) {
                reservations.put(rows.getLong(1), new Reservation(rows.getLong(1), rows.getString(2), longs(rows.getArray(3))));
            }
            return reservations;
        });
    }

    private Map<String, Coupon> coupons() {
        return query(Service.COUPON, """
                select c.code, array_remove(array_agg(r.order_id) filter (where r.status = 'REDEEMED'), null) as holders
                from coupons c left join redemptions r on r.coupon_code = c.code
                group by c.code""", rows -> {
            Map<String, Coupon> coupons = new HashMap<>();
            while (rows.next()) {
                Array holders = rows.getArray(2);
                coupons.put(rows.getString(1), new Coupon(rows.getString(1), holders == null ? List.of() : longs(holders)));
            }
            return coupons;
        });
    }

    private Map<Long, String> redemptions() {
        return query(Service.COUPON, "select order_id, status from redemptions", rows -> {
            Map<Long, String> redemptions = new HashMap<>();
            while (rows.next()) {
                redemptions.put(rows.getLong(1), rows.getString(2));
            }
            return redemptions;
        });
    }

    private Map<Long, List<String>> assessments() {
        return query(Service.RISK, "select order_id, decision from assessments", rows -> {
            Map<Long, List<String>> assessments = new HashMap<>();
            while (rows.next()) {
                assessments.computeIfAbsent(rows.getLong(1), id -> new ArrayList<>()).add(rows.getString(2));
            }
            return assessments;
        });
    }

    private static List<OutboxRow> outboxRows(ResultSet rows) throws SQLException {
        List<OutboxRow> outbox = new ArrayList<>();
        while (rows.next()) {
            String aggregateType = rows.getString("aggregate_type");
            String aggregateId = rows.getString("aggregate_id");
            outbox.add(new OutboxRow(rows.getObject("id", UUID.class), aggregateType, aggregateId,
                    rows.getString("event_type"), rows.getString("exchange"), orderIdOf(aggregateType, aggregateId),
                    rows.getBoolean("sent"), rows.getBoolean("parked")));
        }
        return outbox;
    }

    /** Every event of the contract is about an order: aggregate type {@code order}, aggregate id its id. */
    private static Long orderIdOf(String aggregateType, String aggregateId) {
        if (!"order".equals(aggregateType)) {
            return null;
        }
        try {
            return Long.valueOf(aggregateId);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static long count(ResultSet rows) throws SQLException {
        rows.next();
        return rows.getLong(1);
    }

    private static List<Long> longs(Array array) throws SQLException {
        Object values = array.getArray();
        return values instanceof Long[] longs ? Arrays.asList(longs) : List.of();
    }

    private List<JsonNode> managementQueues() {
        String auth = Base64.getEncoder()
                .encodeToString((broker.user() + ":" + broker.password()).getBytes(StandardCharsets.UTF_8));
        URI uri = broker.managementUri().resolve("/api/queues?columns=name,messages_ready,messages_unacknowledged,message_stats");
        HttpRequest request = HttpRequest.newBuilder(uri).header("Authorization", "Basic " + auth)
                .timeout(Duration.ofSeconds(10)).build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("GET " + uri + " answered " + response.statusCode());
            }
            List<JsonNode> queues = new ArrayList<>();
            JSON.readTree(response.body()).forEach(queues::add);
            return queues;
        } catch (IOException e) {
            throw new IllegalStateException("RabbitMQ management API does not answer at " + uri, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private <T> T query(Service service, String sql, ResultReader<T> reader) {
        try (Connection connection = DriverManager.getConnection(
                database.jdbcUrl(service.database()) + "?connectTimeout=5&socketTimeout=60", database.user(),
                database.password()); Statement statement = connection.createStatement()) {
            connection.setReadOnly(true);
            try (ResultSet rows = statement.executeQuery(sql)) {
                return reader.read(rows);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("reading " + service.database() + " failed: " + e.getMessage(), e);
        }
    }

    @FunctionalInterface
    private interface ResultReader<T> {
        T read(ResultSet rows) throws SQLException;
    }
}
