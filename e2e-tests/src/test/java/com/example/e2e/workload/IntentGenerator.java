package com.example.e2e.workload;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/**
 * Makes a scenario's intents from a seed, so that a run can be repeated exactly. Most intents must be
 * confirmed; the rest are rejected on purpose, race for scarce things, are cancelled by their users, or are invalid.
 */
public final class IntentGenerator {

    /** Percentages of each plan; CONFIRM takes the rest. */
    private static final int OUT_OF_STOCK = 7;
    private static final int BLOCKED_USER = 5;
    private static final int TOO_MANY_UNITS = 5;
    private static final int COUPON_USED = 5;
    private static final int DECLINED = 3;
    private static final int CONTESTED = 8;
    private static final int CANCELLED = 5;
    private static final int INVALID = 3;
    private static final int DOUBLE_SUBMIT = 5;
    /**
     * A cancellation comes up to this long after the order was acknowledged: an order is paid for within about a second
     * of its creation when nothing is wrong (0.5 to 1 s seen on the processes driver), so cancellations land before
     * the payment is asked for, while it is on its way to the provider, and after it succeeded.
     */
    private static final int CANCEL_WITHIN_MS = 2_500;

    private final Catalog catalog;
    private final RiskRules rules;
    private final Random random;
    private Duration cancelWithin = Duration.ofMillis(CANCEL_WITHIN_MS);
    private int number;

    public IntentGenerator(Catalog catalog, RiskRules rules, long seed) {
        this.catalog = catalog;
        this.rules = rules;
        this.random = new Random(seed);
    }

    /**
     * Users cancel up to this long after the acknowledgement instead of {@value #CANCEL_WITHIN_MS} ms. The same seed
     * draws the same intents whatever the window: only the delays are stretched.
     */
    public IntentGenerator cancellingWithin(Duration window) {
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("a cancellation window must be positive, not " + window);
        }
        this.cancelWithin = window;
        return this;
    }

    public List<Intent> next(int count) {
        List<Intent> intents = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            intents.add(next());
        }
        return intents;
    }

    /** The next intents of the mix that are planned to be confirmed, skipping the others. */
    public List<Intent> confirmations(int count) {
        List<Intent> intents = new ArrayList<>(count);
        while (intents.size() < count) {
            Intent intent = next();
            if (intent.plan() == Plan.CONFIRM) {
                intents.add(intent);
            }
        }
        return intents;
    }

    public Intent next() {
        number++;
        int roll = random.nextInt(100);
        Plan plan = pick(roll);
        boolean doubleSubmit = random.nextInt(100) < DOUBLE_SUBMIT;
        UUID key = new UUID(random.nextLong() & ~0xF000L | 0x4000L, random.nextLong() & 0x3FFFFFFFFFFFFFFFL | 0x8000000000000000L);
        long user = catalog.user(number);
        return switch (plan) {
            case CONFIRM -> new Intent(number, user, plentyLines(1 + random.nextInt(4)), maybeOwnCoupon(), key, plan,
                    doubleSubmit);
            case OUT_OF_STOCK -> new Intent(number, user, withExtra(plentyLines(1), catalog.emptySku()), maybeOwnCoupon(),
                    key, plan, doubleSubmit);
            case BLOCKED_USER -> new Intent(number, catalog.blockedUser(), plentyLines(2), maybeOwnCoupon(), key, plan,
                    doubleSubmit);
            case TOO_MANY_UNITS -> new Intent(number, user, plentyLines(rules.maxUnitsPerOrder() + 1 + random.nextInt(5)),
                    maybeOwnCoupon(), key, plan, doubleSubmit);
            case COUPON_USED -> new Intent(number, user, plentyLines(1), catalog.usedCoupon(), key, plan, doubleSubmit);
            case DECLINED -> new Intent(number, user, withExtra(plentyLines(random.nextInt(2)), catalog.luxurySku()),
                    maybeOwnCoupon(), key, plan, doubleSubmit);
            case CONTESTED -> contested(user, key, doubleSubmit);
            case CANCELLED -> new Intent(number, user, plentyLines(1 + random.nextInt(3)), maybeOwnCoupon(), key, plan,
                    doubleSubmit, cancelDelay(random.nextInt(CANCEL_WITHIN_MS)));
            case INVALID -> new Intent(number, user, plentyLines(1), "NOT A VALID CODE!", key, plan, doubleSubmit);
        };
    }

    private Plan pick(int roll) {
        int[] limits = { OUT_OF_STOCK, BLOCKED_USER, TOO_MANY_UNITS, COUPON_USED, DECLINED, CONTESTED, CANCELLED,
                INVALID };
        Plan[] plans = { Plan.OUT_OF_STOCK, Plan.BLOCKED_USER, Plan.TOO_MANY_UNITS, Plan.COUPON_USED, Plan.DECLINED,
                Plan.CONTESTED, Plan.CANCELLED, Plan.INVALID };
        int upTo = 0;
        for (int i = 0; i < plans.length; i++) {
            upTo += limits[i];
            if (roll < upTo) {
                return plans[i];
            }
        }
        return Plan.CONFIRM;
    }

    private Intent contested(long user, UUID key, boolean doubleSubmit) {
        if (random.nextBoolean()) {
            List<Long> scarce = catalog.scarceSkus();
            return new Intent(number, user, withExtra(plentyLines(1), scarce.get(random.nextInt(scarce.size()))), null, key,
                    Plan.CONTESTED, doubleSubmit);
        }
        List<String> shared = catalog.sharedCoupons();
        return new Intent(number, user, plentyLines(1), shared.get(random.nextInt(shared.size())), key, Plan.CONTESTED,
                doubleSubmit);
    }

    /** A draw in [0, CANCEL_WITHIN_MS) scaled to the window, so that the draws (and the seed's mix) stay the same. */
    private Duration cancelDelay(int draw) {
        return Duration.ofNanos(cancelWithin.toNanos() / CANCEL_WITHIN_MS * draw);
    }

    private String maybeOwnCoupon() {
        return random.nextBoolean() ? catalog.ownCoupon(number) : null;
    }

    private List<Long> plentyLines(int units) {
        List<Long> plenty = catalog.plentySkus();
        List<Long> lines = new ArrayList<>(units);
        for (int i = 0; i < units; i++) {
            lines.add(plenty.get(random.nextInt(plenty.size())));
        }
        return lines;
    }

    private static List<Long> withExtra(List<Long> lines, long sku) {
        List<Long> all = new ArrayList<>(lines);
        all.add(sku);
        Collections.shuffle(all, new Random(sku));
        return all;
    }
}
