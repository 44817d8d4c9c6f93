package com.example.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Golden files: every event type of the contract has a committed JSON body it writes and reads back. */
class EventJsonTests {

    private static final Instant AT = Instant.parse("2026-11-30T10:15:30.123Z");
    private static final Long ORDER = 123L;

    private static final Map<String, DomainEvent> SAMPLES = Stream.<DomainEvent>of(
            new OrderCreated(id("5b6f0f8e-8a53-4c6e-9a34-2d1b3c9e7f10"), ORDER, 42L, List.of(1001L, 1002L, 1002L),
                    "WELCOME10", AT),
            new OrderCancelled(id("0c2f6a3e-1d4b-4f7a-9b1e-3a5c7d9e1f20"), ORDER,
                    "inventory: insufficient stock for sku 1002", AT),
            new InventoryReserved(id("1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c80"), ORDER, List.of(1001L, 1002L, 1002L),
                    5997L, AT),
            new InventoryRejected(id("2b3c4d5e-6f7a-4b2c-9d3e-4f5a6b7c8d90"), ORDER, "insufficient stock for sku 1002",
                    AT),
            new InventoryReleased(id("3c4d5e6f-7a8b-4c3d-8e4f-5a6b7c8d9ea0"), ORDER, AT),
            new CouponRedeemed(id("4d5e6f7a-8b9c-4d4e-9f5a-6b7c8d9e0fb0"), ORDER, "WELCOME10", 10, AT),
            new CouponRejected(id("5e6f7a8b-9c0d-4e5f-8a6b-7c8d9e0f1ac0"), ORDER, "WELCOME10", "already redeemed", AT),
            new CouponNotNeeded(id("6f7a8b9c-0d1e-4f6a-9b7c-8d9e0f1a2bd0"), ORDER, AT),
            new CouponReleased(id("7a8b9c0d-1e2f-4a7b-8c8d-9e0f1a2b3ce0"), ORDER, "WELCOME10", AT),
            new RiskApproved(id("8b9c0d1e-2f3a-4b8c-9d9e-0f1a2b3c4df0"), ORDER, AT),
            new RiskRejected(id("9c0d1e2f-3a4b-4c9d-8eaf-1a2b3c4d5e01"), ORDER,
                    List.of("user 42 is blocked", "order has 120 units, more than the maximum of 100"), AT),
            new PaymentRequested(id("a1d2e3f4-5a6b-4c7d-8e9f-0a1b2c3d4e11"), ORDER, 42L, 5397L, AT),
            new PaymentSucceeded(id("b2e3f4a5-6b7c-4d8e-9f0a-1b2c3d4e5f21"), ORDER, 5397L, "ch_3f9a1c2e7b5d4a60", AT),
            new PaymentFailed(id("c3f4a5b6-7c8d-4e9f-8a1b-2c3d4e5f6a31"), ORDER, "declined by the provider", AT),
            new PaymentRefunded(id("d4a5b6c7-8d9e-4f0a-9b2c-3d4e5f6a7b41"), ORDER, 5397L, "ch_3f9a1c2e7b5d4a60",
                    "re_8c1d2e3f4a5b6c70", AT))
            .collect(Collectors.toMap(DomainEvent::eventType, Function.identity()));


    @Test
    void everyEventTypeOfTheContractIsKnown() {
        assertThat(EventTypes.all()).containsOnlyKeys("OrderCreated", "OrderCancelled", "InventoryReserved",
                "InventoryRejected", "InventoryReleased", "CouponRedeemed", "CouponRejected", "CouponNotNeeded",
                "CouponReleased", "RiskApproved", "RiskRejected", "PaymentRequested", "PaymentSucceeded", "PaymentFailed",
                "PaymentRefunded");
        assertThat(SAMPLES).containsOnlyKeys(EventTypes.all().keySet());
    }

    @ParameterizedTest
    @MethodSource("com.example.events.GoldenFixtures#eventTypes")
    void writesTheGoldenFile(String eventType) throws IOException {
        JsonNode written = EventJson.mapper().readTree(EventJson.write(SAMPLES.get(eventType)));

        assertThat(written).isEqualTo(EventJson.mapper().readTree(GoldenFixtures.read(eventType)));
    }

    @ParameterizedTest
    @MethodSource("com.example.events.GoldenFixtures#eventTypes")
    void readsTheGoldenFileBackEqual(String eventType) throws IOException {
        DomainEvent read = EventJson.read(eventType, GoldenFixtures.read(eventType).getBytes(StandardCharsets.UTF_8));

        assertThat(read).isEqualTo(SAMPLES.get(eventType));
        assertThat(read.eventType()).isEqualTo(eventType);
    }

    /** Amounts were added to these events later: an event of an earlier version reads with none. */
    @Test
    void readsTheEventsOfEarlierVersionsWithoutAmounts() throws IOException {
        ObjectNode reserved = (ObjectNode) EventJson.mapper().readTree(GoldenFixtures.read("InventoryReserved"));
        reserved.remove("amount_cents");
        ObjectNode redeemed = (ObjectNode) EventJson.mapper().readTree(GoldenFixtures.read("CouponRedeemed"));
        redeemed.remove("discount_percent");

        assertThat(((InventoryReserved) EventJson.read("InventoryReserved",
                EventJson.mapper().writeValueAsBytes(reserved))).amountCents()).isNull();
        assertThat(((CouponRedeemed) EventJson.read("CouponRedeemed",
                EventJson.mapper().writeValueAsBytes(redeemed))).discountPercent()).isNull();
    }

    @ParameterizedTest
    @MethodSource("com.example.events.GoldenFixtures#eventTypes")
    void toleratesUnknownFieldsFromNewerProducers(String eventType) throws IOException {
        ObjectNode body = (ObjectNode) EventJson.mapper().readTree(GoldenFixtures.read(eventType));
        body.put("added_in_version_2", "ignored");
        body.putObject("nested_extension").put("x", 1);

        DomainEvent read = EventJson.read(eventType, EventJson.mapper().writeValueAsBytes(body));

        assertThat(read).isEqualTo(SAMPLES.get(eventType));
    }

    @ParameterizedTest
    @MethodSource("com.example.events.GoldenFixtures#eventTypes")
    void refusesABodyWithoutItsEventId(String eventType) throws IOException {
        ObjectNode body = (ObjectNode) EventJson.mapper().readTree(GoldenFixtures.read(eventType));
        body.remove("event_id");

        assertThatThrownBy(() -> EventJson.read(eventType, EventJson.mapper().writeValueAsBytes(body)))
                .isInstanceOf(EventFormatException.class)
                .hasMessageContaining(eventType)
                .hasMessageContaining("missing required field 'event_id'");
    }

    @Test
    void namesTheMissingFieldOfASpecificEvent() throws IOException {
        ObjectNode body = (ObjectNode) EventJson.mapper().readTree(GoldenFixtures.read("OrderCreated"));
        body.remove("sku_ids");

        assertThatThrownBy(() -> EventJson.read(body.toString(), OrderCreated.class))
                .isInstanceOf(EventFormatException.class)
                .hasMessage("OrderCreated: missing required field 'sku_ids'");
    }

    @Test
    void anOrderWithoutCouponWritesAnExplicitNull() {
        OrderCreated created = new OrderCreated(UUID.randomUUID(), 1L, 2L, List.of(3L), null, AT);

        JsonNode written = EventJson.mapper().readTree(EventJson.write(created));

        assertThat(written.has("coupon_code")).isTrue();
        assertThat(written.get("coupon_code").isNull()).isTrue();
        assertThat(EventJson.read(written.toString(), OrderCreated.class)).isEqualTo(created);
    }

    @Test
    void refusesUnknownEventTypesAndMalformedJson() {
        assertThatThrownBy(() -> EventJson.read("OrderShipped", "{}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(EventFormatException.class)
                .hasMessageContaining("unknown event type 'OrderShipped'");
        assertThatThrownBy(() -> EventJson.read("{\"event_id\": ", RiskApproved.class))
                .isInstanceOf(EventFormatException.class)
                .hasMessageContaining("malformed JSON");
    }

    @Test
    void eventsAreImmutable() {
        OrderCreated created = (OrderCreated) SAMPLES.get("OrderCreated");

        assertThatThrownBy(() -> created.skuIds().add(1L)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void eachProducerPublishesToItsOwnExchange() {
        assertThat(SAMPLES.get("OrderCreated").exchange()).isEqualTo("order.events");
        assertThat(SAMPLES.get("InventoryRejected").exchange()).isEqualTo("inventory.events");
        assertThat(SAMPLES.get("CouponNotNeeded").exchange()).isEqualTo("coupon.events");
        assertThat(SAMPLES.get("RiskRejected").exchange()).isEqualTo("risk.events");
        assertThat(SAMPLES.get("RiskRejected").aggregateId()).isEqualTo("123");
    }

    @Test
    void theCatalogueKnowsEachRecordsAndFamilysExchange() {
        EventTypes.all().values().forEach(type -> assertThat(EventTypes.exchangeOf(type))
                .isEqualTo(SAMPLES.get(type.getSimpleName()).exchange()));
        assertThat(EventTypes.exchangeOf(CouponEvent.class)).isEqualTo("coupon.events");
        assertThat(EventTypes.recordsOf(OrderEvent.class)).containsExactlyInAnyOrder(OrderCreated.class,
                OrderCancelled.class, PaymentRequested.class);
        assertThat(SAMPLES.get("PaymentRefunded").exchange()).isEqualTo("payment.events");
        assertThat(EventTypes.recordsOf(RiskApproved.class)).containsExactly(RiskApproved.class);
        assertThat(EventTypes.recordsOf(DomainEvent.class)).containsExactlyInAnyOrderElementsOf(EventTypes.all().values());
    }

    @Test
    void aNameStandsForItsRecordOrForAWholeFamily() {
        assertThat(EventTypes.recordsNamed("RiskApproved")).contains(Set.of(RiskApproved.class));
        assertThat(EventTypes.recordsNamed("CouponEvent")).contains(EventTypes.recordsOf(CouponEvent.class));
        assertThat(EventTypes.recordsNamed("DomainEvent")).as("not one producer's family").isEmpty();
        assertThat(EventTypes.recordsNamed("riskapproved")).isEmpty();
        assertThat(EventTypes.recordsNamed(null)).isEmpty();
    }

    /** What order-service would never accept is unreadable for every consumer: poison by construction. */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "sku_ids|[]|'sku_ids' must name at least one sku",
            "sku_ids|[1001, 0]|'sku_ids[1]' must be > 0, was 0",
            "sku_ids|[1001, null]|'sku_ids' must not contain null",
            "user_id|-4|'user_id' must be > 0, was -4",
            "coupon_code|\"NOT A CODE\"|'coupon_code' 'NOT A CODE' is not 1 to 64 of A-Z a-z 0-9 _ -" })
    void anOrderCreatedThatBreaksTheContractCannotBeRead(String field, String json, String reason) throws IOException {
        ObjectNode body = (ObjectNode) EventJson.mapper().readTree(GoldenFixtures.read("OrderCreated"));
        body.set(field, EventJson.mapper().readTree(json));

        assertThatThrownBy(() -> EventJson.read("OrderCreated", EventJson.mapper().writeValueAsBytes(body)))
                .isInstanceOf(EventFormatException.class)
                .hasMessage("OrderCreated: " + reason);
    }

    private static UUID id(String value) {
        return UUID.fromString(value);
    }
}
