package com.example.risk;

import java.time.Instant;
import java.util.List;

/** The risk decision for one order, with the reasons of a rejection (none for an approval). */
public record Assessment(long orderId, long userId, int units, RiskDecision decision, List<String> reasons,
        Instant orderOccurredAt) {

    public Assessment {
        reasons = List.copyOf(reasons);
    }
}
