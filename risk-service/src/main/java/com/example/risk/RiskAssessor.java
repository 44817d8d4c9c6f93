package com.example.risk;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import org.springframework.stereotype.Service;

import com.example.events.OrderCreated;
import com.example.events.RiskApproved;
import com.example.events.RiskEvent;
import com.example.events.RiskRejected;
import com.example.messaging.inbox.LockAhead;
import com.example.risk.persistence.AssessmentRepository;

import reactor.core.publisher.Mono;

/**
 * Assesses each order once. Runs inside the inbox transaction, so the assessment and its answer
 * commit together. Assessments of one user are serialized (a transaction-scoped lock on the user), so
 * the count of the user's recent orders cannot miss an order being assessed at the same moment.
 *
 * <p>A new order costs three statements: the user's lock, one read (the order's assessment, if any, and the user's
 * recent orders) and the insert. In a batch, the users of all its orders are locked ahead in one statement
 * ({@link #lockUsersOf}), and their orders skip the lock.
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
        Instant at = order.occurredAt();
        return lock(order.userId())
                .then(assessments.findWithRecentOrders(order.orderId(), order.userId(), at.minus(RATE_WINDOW), at))
                .flatMap(seen -> seen.assessment() != null ? Mono.just(seen.assessment())
                        : assessNew(order, seen.recentOrders()))
                .map(RiskAssessor::answer);
    }

    /**
     * In a batch of orders, before any of them is assessed ({@code LockAhead}): locks every user they belong to, in
     * ascending order of the user ids, and remembers them in the batch's transaction, so that the orders of the batch
     * do not lock their users again, and two batches in flight at once queue for their users rather than each
     * holding one the other wants.
     */
    public Mono<Void> lockUsersOf(List<OrderCreated> orders) {
        Set<Long> users = orders.stream().map(OrderCreated::userId).collect(Collectors.toUnmodifiableSet());
        if (users.isEmpty()) {
            return Mono.empty();
        }
        return assessments.lockUsers(users).then(LockAhead.keep(LockedUsers.class, new LockedUsers(users)));
    }

    /** The user's lock, unless this transaction's batch took it ahead. */
    private Mono<Void> lock(long userId) {
        return LockAhead.kept(LockedUsers.class)
                .filter(locked -> locked.userIds().contains(userId))
                .hasElement()
                .flatMap(lockedAhead -> lockedAhead ? Mono.<Void>empty() : assessments.lockUser(userId));
    }

    private Mono<Assessment> assessNew(OrderCreated order, long recentOrders) {
        int units = order.skuIds().size();
        List<String> reasons = rules.reasonsToReject(order.userId(), units, recentOrders);
        Assessment assessment = new Assessment(order.orderId(), order.userId(), units,
                reasons.isEmpty() ? RiskDecision.APPROVED : RiskDecision.REJECTED, reasons, order.occurredAt());
        // Nothing inserted: the order has an assessment under another user (its own user's lock does not cover
        // that one); it stands, and answers this event too.
        return assessments.insertIfAbsent(assessment).switchIfEmpty(Mono.defer(() -> assessments.find(order.orderId())));
    }

    /** The users a batch's transaction locked ahead. */
    private record LockedUsers(Set<Long> userIds) {
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
