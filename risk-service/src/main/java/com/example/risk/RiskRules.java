package com.example.risk;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The risk rules ({@code risk.*}): deterministic, so the same order with the same history always gets
 * the same decision.
 *
 * @param blockedUserIds users whose orders are always rejected
 * @param maxUnitsPerOrder the most units (sku ids, counting repeats) one order may have
 * @param maxOrdersPerUserPerMinute the most orders a user may place within a minute; the next one is rejected
 */
@ConfigurationProperties("risk")
public record RiskRules(@DefaultValue Set<Long> blockedUserIds, @DefaultValue("20") int maxUnitsPerOrder,
        @DefaultValue("10") int maxOrdersPerUserPerMinute) {

    public RiskRules {
        blockedUserIds = Set.copyOf(blockedUserIds);
    }

    /**
     * @param ordersInMinuteBefore the user's orders placed within the minute up to this order, not counting it
     * @return why the order is rejected; empty when it is approved
     */
    List<String> reasonsToReject(long userId, int units, long ordersInMinuteBefore) {
        List<String> reasons = new ArrayList<>();
        if (blockedUserIds.contains(userId)) {
            reasons.add("user " + userId + " is blocked");
        }
        if (units > maxUnitsPerOrder) {
            reasons.add("order has " + units + " units, more than the maximum of " + maxUnitsPerOrder);
        }
        if (ordersInMinuteBefore >= maxOrdersPerUserPerMinute) {
            reasons.add("user " + userId + " placed " + ordersInMinuteBefore
                    + " orders in the minute before this one; the maximum is " + maxOrdersPerUserPerMinute);
        }
        return reasons;
    }
}
