package com.example.risk;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.springframework.stereotype.Service;

import com.example.events.OrderCreated;
import com.example.events.RiskApproved;
import com.example.events.RiskEvent;
import com.example.events.RiskRejected;
import com.example.risk.persistence.AssessmentRepository;

import reactor.core.publisher.Mono;

/**
 * Assesses each order once. Runs inside the inbox transaction, so the assessment and its answer
 * commit together. Assessments of one user are serialized (a transaction-scoped lock on the user), so
 * the count of the user's recent orders cannot miss an order being assessed at the same moment.
 */
@Service
public class RiskAssessor {

    private static final Duration RATE_WINDOW = Duration.ofMinutes(1);

    private final AssessmentRepository assessments;
    private final RiskRules rules;

    RiskAssessor(AssessmentRepository assessments, RiskRules rules) {
        this.assessments = assessments;
        this.rules = rules;
    }

    /** The order's assessment, made now or found from before, as the event that answers the order. */
    public Mono<RiskEvent> assess(OrderCreated order) {
        return assessments.lockUser(order.userId())
                .then(assessments.find(order.orderId()))
                .switchIfEmpty(Mono.defer(() -> assessNew(order)))
                .map(RiskAssessor::answer);
    }

    private Mono<Assessment> assessNew(OrderCreated order) {
        Instant at = order.occurredAt();
        int units = order.skuIds().size();
        return assessments.countOrders(order.userId(), at.minus(RATE_WINDOW), at)
                .map(recent -> {
                    List<String> reasons = rules.reasonsToReject(order.userId(), units, recent);
                    return new Assessment(order.orderId(), order.userId(), units,
                            reasons.isEmpty() ? RiskDecision.APPROVED : RiskDecision.REJECTED, reasons, at);
                })
                .flatMap(assessment -> assessments.insertIfAbsent(assessment).then(assessments.find(order.orderId())));
    }

    public Mono<Assessment> find(long orderId) {
        return assessments.find(orderId);
    }

    private static RiskEvent answer(Assessment assessment) {
        return switch (assessment.decision()) {
            case APPROVED -> new RiskApproved(UUID.randomUUID(), assessment.orderId(), Instant.now());
            case REJECTED -> new RiskRejected(UUID.randomUUID(), assessment.orderId(), assessment.reasons(), Instant.now());
        };
    }
}
