package com.example.e2e.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.LongStream;

/**
 * The slice of the world one scenario owns: its users, skus (with their initial stock) and coupons,
 * all numbered from the scenario's slot, so scenarios that share one running system never touch each
 * other's data and each can be checked on its own.
 *
 * <ul>
 * <li>plenty skus: enough stock that no planned intent runs out;</li>
 * <li>scarce skus: two units each, for intents that race for them;</li>
 * <li>an empty sku: known to inventory with no stock, for intents that must be rejected;</li>
 * <li>a luxury sku: plenty of stock, at a price no payment provider takes ({@link #LUXURY_PRICE_CENTS}), for intents
 * whose payment must be declined;</li>
 * <li>a used coupon (redeemed by the scenario's warm-up order), shared coupons (raced for), and one
 * coupon of its own for each intent that wants one.</li>
 * </ul>
 */
public final class Catalog {

    static final int PLENTY_STOCK = 5_000;
    static final int SCARCE_STOCK = 2;
    /**
     * The luxury sku's price: 5,000,000.00, declined by the payment simulator (it declines every amount above its
     * {@code decline-above-cents}, 1,000,000.00 by default) even after the largest discount a coupon gives.
     */
    static final long LUXURY_PRICE_CENTS = 500_000_000L;
    private static final long USERS_PER_SLOT = 100_000;
    private static final long SKUS_PER_SLOT = 1_000;

    private final int slot;

    public Catalog(int slot) {
        if (slot < 1 || slot > RiskRules.SLOTS) {
            throw new IllegalArgumentException("slot must be within 1.." + RiskRules.SLOTS + ": " + slot);
        }
        this.slot = slot;
    }

    public int slot() {
        return slot;
    }

    static long blockedUserOf(long slot) {
        return slot * USERS_PER_SLOT + USERS_PER_SLOT - 1;
    }

    /** The user of an intent: one per intent, so per-user rate rules never reject a planned confirmation. */
    long user(int intentNumber) {
        return slot * USERS_PER_SLOT + intentNumber;
    }

    long blockedUser() {
        return blockedUserOf(slot);
    }

    /** The user of the warm-up order that takes the used coupon. */
    long warmUpUser() {
        return slot * USERS_PER_SLOT + USERS_PER_SLOT - 2;
    }

    /**
     * The warm-up intent every scenario places before its workload and its faults: it must be confirmed,
     * which shows the system works, and it takes the used coupon that COUPON_USED intents then find taken.
     */
    public Intent warmUpIntent(UUID idempotencyKey) {
        return new Intent(0, warmUpUser(), List.of(plentySkus().get(0)), usedCoupon(), idempotencyKey, Plan.CONFIRM,
                false);
    }

    public boolean ownsUser(long userId) {
        return userId / USERS_PER_SLOT == slot;
    }

    List<Long> plentySkus() {
        return LongStream.rangeClosed(1, 20).map(i -> skuBase() + i).boxed().toList();
    }

    List<Long> scarceSkus() {
        return LongStream.rangeClosed(51, 53).map(i -> skuBase() + i).boxed().toList();
    }

    long emptySku() {
        return skuBase() + 99;
    }

    long luxurySku() {
        return skuBase() + 90;
    }

    /** A sku's price: the luxury sku's, else {@link Seeder#variedPriceCents}. */
    public long priceCents(long sku) {
        return sku == luxurySku() ? LUXURY_PRICE_CENTS : Seeder.variedPriceCents(sku);
    }

    public boolean ownsSku(long skuId) {
        return skuId / SKUS_PER_SLOT == slot;
    }

    /** Every sku of the scenario with the stock it starts with. */
    public Map<Long, Integer> initialStock() {
        Map<Long, Integer> stock = new LinkedHashMap<>();
        plentySkus().forEach(sku -> stock.put(sku, PLENTY_STOCK));
        scarceSkus().forEach(sku -> stock.put(sku, SCARCE_STOCK));
        stock.put(emptySku(), 0);
        stock.put(luxurySku(), PLENTY_STOCK);
        return stock;
    }

    public String usedCoupon() {
        return prefix() + "USED";
    }

    List<String> sharedCoupons() {
        return List.of(prefix() + "SHARED-1", prefix() + "SHARED-2");
    }

    String ownCoupon(int intentNumber) {
        return prefix() + intentNumber;
    }

    /** The coupons that must exist before the given intents run. */
    public List<String> couponsFor(List<Intent> intents) {
        List<String> coupons = new ArrayList<>(List.of(usedCoupon()));
        coupons.addAll(sharedCoupons());
        intents.stream().map(Intent::couponCode)
                .filter(code -> code != null && code.startsWith(prefix()) && !coupons.contains(code))
                .forEach(coupons::add);
        return coupons;
    }

    public boolean ownsCoupon(String code) {
        return code != null && code.startsWith(prefix());
    }

    private String prefix() {
        return "E2E-S" + slot + "-";
    }

    private long skuBase() {
        return slot * SKUS_PER_SLOT;
    }
}
