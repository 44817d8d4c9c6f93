package com.example.e2e.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import com.example.e2e.nemesis.CrashPoint;
import com.example.e2e.topology.Service;

/**
 * The crash-point scenarios cover the contract: every crash point, in the services that reach it (the shared ones in
 * order-service and one downstream service each), so a crash point added to the contract without a scenario fails
 * here first.
 */
class CrashPointCaseTests {

    @Test
    void everyCrashPointOfTheContractHasScenarios() {
        assertThat(CrashPointCase.all().stream().map(CrashPointCase::point).collect(Collectors.toSet()))
                .isEqualTo(CrashPoint.ALL);
    }

    @Test
    void sharedCrashPointsAreCoveredInOrderServiceAndOneDownstreamServiceEachEveryOneOfThemAtLeastOnce() {
        for (String point : List.of(CrashPoint.RELAY_BEFORE_PUBLISH, CrashPoint.RELAY_AFTER_PUBLISH_BEFORE_MARK,
                CrashPoint.CONSUMER_BEFORE_COMMIT, CrashPoint.CONSUMER_AFTER_COMMIT_BEFORE_ACK)) {
            assertThat(CrashPointCase.all()).filteredOn(crash -> crash.point().equals(point))
                    .extracting(CrashPointCase::service).hasSize(2).contains(Service.ORDER)
                    .containsAnyOf(Service.INVENTORY, Service.COUPON, Service.RISK);
        }
        assertThat(CrashPointCase.all()).extracting(CrashPointCase::service)
                .contains(Service.INVENTORY, Service.COUPON, Service.RISK);
        assertThat(CrashPointCase.all()).filteredOn(crash -> crash.point().startsWith("payment."))
                .extracting(CrashPointCase::service).containsOnly(Service.PAYMENT).hasSize(2);
    }

    @Test
    void aCrashThatLeavesADuplicateRequiresSeeingIt() {
        CrashPointCase afterAck = new CrashPointCase(Service.RISK, CrashPoint.CONSUMER_AFTER_COMMIT_BEFORE_ACK);
        CrashPointCase afterConfirm = new CrashPointCase(Service.ORDER, CrashPoint.RELAY_AFTER_PUBLISH_BEFORE_MARK);
        CrashPointCase beforeResponse = new CrashPointCase(Service.ORDER, CrashPoint.ORDER_AFTER_COMMIT_BEFORE_RESPONSE);

        assertThat(afterAck.requirements()).extracting(requirement -> requirement.description())
                .contains("duplicates delivered and suppressed in [risk-service]");
        assertThat(afterConfirm.requirements()).extracting(requirement -> requirement.description())
                .contains("duplicates delivered and suppressed in one of [inventory-service, coupon-service, "
                        + "payment-service]");
        assertThat(beforeResponse.requirements()).extracting(requirement -> requirement.description())
                .contains("a retried request answered as a replay (Idempotent-Replayed)");
    }
}
