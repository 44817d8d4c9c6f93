package com.example.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class UnitsTests {

    @Test
    void aRepeatedSkuIsOneMoreUnitAndSkusComeInAscendingOrder() {
        Units units = Units.of(List.of(30L, 10L, 30L, 20L, 30L));

        assertThat(units.perSku()).containsExactly(Map.entry(10L, 1), Map.entry(20L, 1), Map.entry(30L, 3));
        assertThat(units.skuIds()).containsExactly(10L, 20L, 30L);
    }

    @Test
    void noShortageWhenEverySkuCoversItsUnits() {
        Units units = Units.of(List.of(1L, 2L, 2L));

        assertThat(units.shortage(Map.of(1L, new Stock(1, 1, 0, 0), 2L, new Stock(2, 2, 7, 0)))).isEmpty();
    }

    @Test
    void namesTheFirstShortSkuWithRequestedAndAvailableUnits() {
        Units units = Units.of(List.of(1L, 2L, 2L, 3L));

        assertThat(units.shortage(Map.of(1L, new Stock(1, 5, 0, 0), 2L, new Stock(2, 1, 0, 0), 3L, new Stock(3, 0, 0, 0))))
                .contains("insufficient stock for sku 2: 2 requested, 1 available");
    }

    @Test
    void anUnknownSkuHasNoUnits() {
        assertThat(Units.of(List.of(9L)).shortage(Map.of()))
                .contains("insufficient stock for sku 9: 1 requested, 0 available");
    }

    @Test
    void anOrderCostsEachOfItsUnitsAtItsSkusPrice() {
        Units units = Units.of(List.of(2L, 1L, 2L, 2L));

        assertThat(units.amountCents(Map.of(1L, new Stock(1, 5, 0, 1999), 2L, new Stock(2, 5, 0, 250))))
                .isEqualTo(1999 + 3 * 250);
    }
}
