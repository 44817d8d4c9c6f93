package com.example.e2e.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

/** The workload a seed makes: repeatable, every plan present, each intent shaped for its plan. */
class IntentGeneratorTests {

    private final Catalog catalog = new Catalog(3);
    private final RiskRules rules = RiskRules.standard();

    @Test
    void theSameSeedMakesTheSameIntents() {
        assertThat(new IntentGenerator(catalog, rules, 42).next(200))
                .isEqualTo(new IntentGenerator(catalog, rules, 42).next(200));
    }

    @Test
    void everyPlanAppearsAndStaysInsideTheCatalog() {
        List<Intent> intents = new IntentGenerator(catalog, rules, 7).next(1000);

        assertThat(intents.stream().map(Intent::plan).collect(Collectors.toSet())).isEqualTo(EnumSet.allOf(Plan.class));
        assertThat(intents).allSatisfy(intent -> {
            assertThat(catalog.ownsUser(intent.userId())).isTrue();
            assertThat(intent.skuIds()).allMatch(catalog::ownsSku);
        });
        assertThat(intents.stream().map(Intent::idempotencyKey).distinct()).hasSize(intents.size());
    }

    @Test
    void eachPlanIsBuiltToEndTheWayItSays() {
        List<Intent> intents = new IntentGenerator(catalog, rules, 11).next(1000);
        Set<Long> blocked = Set.copyOf(rules.blockedUsers());

        assertThat(of(intents, Plan.BLOCKED_USER)).allMatch(intent -> blocked.contains(intent.userId()));
        assertThat(of(intents, Plan.TOO_MANY_UNITS)).allMatch(intent -> intent.skuIds().size() > rules.maxUnitsPerOrder());
        assertThat(of(intents, Plan.OUT_OF_STOCK)).allMatch(intent -> intent.skuIds().stream()
                .anyMatch(sku -> catalog.initialStock().get(sku) == 0));
        assertThat(of(intents, Plan.COUPON_USED)).allMatch(intent -> catalog.usedCoupon().equals(intent.couponCode()));
        assertThat(of(intents, Plan.INVALID)).allMatch(intent -> !intent.couponCode().matches("[A-Za-z0-9_-]{1,64}"));
        assertThat(of(intents, Plan.DECLINED)).allMatch(intent -> intent.skuIds().contains(catalog.luxurySku())
                && intent.skuIds().size() <= rules.maxUnitsPerOrder() && !blocked.contains(intent.userId()));
        assertThat(of(intents, Plan.CANCELLED)).allMatch(intent -> intent.cancelAfter() != null
                && intent.skuIds().stream().allMatch(sku -> catalog.priceCents(sku) < Catalog.LUXURY_PRICE_CENTS));
        assertThat(intents).filteredOn(intent -> intent.plan() != Plan.CANCELLED)
                .allMatch(intent -> intent.cancelAfter() == null);
        assertThat(of(intents, Plan.CONFIRM)).allMatch(intent -> intent.skuIds().size() <= rules.maxUnitsPerOrder()
                && intent.skuIds().stream().allMatch(sku -> catalog.initialStock().get(sku) >= Catalog.PLENTY_STOCK
                        && catalog.priceCents(sku) < Catalog.LUXURY_PRICE_CENTS)
                && !blocked.contains(intent.userId()));
    }

    @Test
    void aLongerCancellationWindowStretchesTheDelaysAndChangesNothingElse() {
        List<Intent> usual = new IntentGenerator(catalog, rules, 13).next(500);
        List<Intent> late = new IntentGenerator(catalog, rules, 13).cancellingWithin(Duration.ofSeconds(25)).next(500);

        assertThat(late).hasSameSizeAs(usual);
        for (int i = 0; i < usual.size(); i++) {
            Intent before = usual.get(i);
            Intent after = late.get(i);
            assertThat(after.idempotencyKey()).isEqualTo(before.idempotencyKey());
            assertThat(after.plan()).isEqualTo(before.plan());
            if (before.cancelAfter() != null) {
                assertThat(after.cancelAfter()).isEqualTo(before.cancelAfter().multipliedBy(10));
            }
        }
        assertThat(of(late, Plan.CANCELLED)).isNotEmpty()
                .allMatch(intent -> intent.cancelAfter().compareTo(Duration.ofSeconds(25)) < 0)
                .anyMatch(intent -> intent.cancelAfter().compareTo(Duration.ofMillis(2_500)) >= 0);
    }

    @Test
    void theCatalogCreatesEveryCouponItsIntentsUse() {
        List<Intent> intents = new IntentGenerator(catalog, rules, 5).next(300);
        List<String> coupons = catalog.couponsFor(intents);

        assertThat(intents).filteredOn(intent -> intent.plan() != Plan.INVALID && intent.couponCode() != null)
                .allMatch(intent -> coupons.contains(intent.couponCode()));
    }

    @Test
    void confirmationsAreAsManyIntentsPlannedToBeConfirmed() {
        List<Intent> intents = new IntentGenerator(catalog, rules, 5).confirmations(50);

        assertThat(intents).hasSize(50).allMatch(intent -> intent.plan() == Plan.CONFIRM);
        assertThat(intents.stream().map(Intent::userId).distinct()).hasSize(50);
    }

    @Test
    void theRequestBodyIsTheContractsJson() {
        Intent intent = new IntentGenerator(catalog, rules, 1).next();

        assertThat(intent.requestBody()).startsWith("{\"user_id\": " + intent.userId() + ", \"sku_ids\": [")
                .contains("\"idempotency_key\": \"" + intent.idempotencyKey() + "\"");
    }

    private static List<Intent> of(List<Intent> intents, Plan plan) {
        return intents.stream().filter(intent -> intent.plan() == plan).toList();
    }
}
