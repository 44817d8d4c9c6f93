package com.example.e2e.workload;

import java.util.List;
import java.util.stream.LongStream;

/**
 * The risk rules the harness starts risk-service with, so that some intents are rejected on purpose
 * and deterministically: a blocked user per catalog slot, and a maximum number of units per order that
 * normal intents stay under.
 */
public record RiskRules(List<Long> blockedUsers, int maxUnitsPerOrder) {

    /** Slots a suite may use; each has one blocked user. */
    static final int SLOTS = 64;

    public static RiskRules standard() {
        return new RiskRules(LongStream.rangeClosed(1, SLOTS).map(Catalog::blockedUserOf).boxed().toList(), 20);
    }
}
