package com.example.order.web;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import com.example.order.OrderStatus;
import com.example.service.web.ApiProblem;
import com.example.service.web.StandardProblem;

/**
 * The two questions {@code GET /orders} answers, told apart by their parameters: the order made for an intent
 * ({@code user_id} and {@code idempotency_key}), or the orders waiting in a status ({@code status}, with
 * {@code older_than} and {@code limit}). A request asks exactly one of them; anything else is a 400 problem that
 * names the fields, never a guess.
 */
sealed interface OrderQuery {

    /** The most orders one answer lists, and the default. */
    int MAX_LIMIT = 100;
    /** A century is older than any order; a far longer one would not fit the database's timestamps. */
    Duration MAX_OLDER_THAN = Duration.ofDays(36_500);

    record ByIntent(long userId, UUID idempotencyKey) implements OrderQuery {
    }

    record ByAge(OrderStatus status, Duration olderThan, int limit) implements OrderQuery {
    }

    /**
     * Reads the query parameters (the typed ones are already converted: a malformed {@code user_id},
     * {@code idempotency_key} or {@code limit} never gets here).
     *
     * @throws ApiProblem when the parameters ask neither question, both, or one of them wrongly
     */
    static OrderQuery of(Long userId, UUID idempotencyKey, String status, String olderThan, Integer limit) {
        boolean byIntent = userId != null || idempotencyKey != null;
        boolean byAge = status != null || olderThan != null || limit != null;
        if (byIntent && byAge) {
            List<ApiProblem.FieldError> errors = new ArrayList<>();
            if (status != null) {
                errors.add(notWithAnIntent("status"));
            }
            if (olderThan != null) {
                errors.add(notWithAnIntent("older_than"));
            }
            if (limit != null) {
                errors.add(notWithAnIntent("limit"));
            }
            throw invalid("Ask for the order of an intent (user_id and idempotency_key) or for the orders in a status "
                    + "(status, older_than, limit), not both", errors);
        }
        if (byIntent) {
            return byIntent(userId, idempotencyKey);
        }
        if (byAge) {
            return byAge(status, olderThan, limit);
        }
        throw invalid("Give user_id and idempotency_key (the order of an intent), or status and optionally "
                + "older_than (the orders in a status)", List.of(
                        new ApiProblem.FieldError("user_id", "is required, with idempotency_key, unless status is given"),
                        new ApiProblem.FieldError("status", "is required unless user_id and idempotency_key are given")));
    }

    private static ByIntent byIntent(Long userId, UUID idempotencyKey) {
        List<ApiProblem.FieldError> errors = new ArrayList<>();
        if (userId == null) {
            errors.add(new ApiProblem.FieldError("user_id", "is required with idempotency_key"));
        }
        if (idempotencyKey == null) {
            errors.add(new ApiProblem.FieldError("idempotency_key", "is required with user_id"));
        }
        if (!errors.isEmpty()) {
            throw invalid("The order of an intent is found by user_id and idempotency_key together", errors);
        }
        return new ByIntent(userId, idempotencyKey);
    }

    private static ByAge byAge(String status, String olderThan, Integer limit) {
        List<ApiProblem.FieldError> errors = new ArrayList<>();
        OrderStatus knownStatus = null;
        if (status == null) {
            errors.add(new ApiProblem.FieldError("status", "is required with older_than or limit"));
        } else {
            knownStatus = Arrays.stream(OrderStatus.values()).filter(known -> known.name().equals(status)).findFirst()
                    .orElse(null);
            if (knownStatus == null) {
                errors.add(new ApiProblem.FieldError("status", "must be one of " + Arrays.toString(OrderStatus.values())));
            }
        }
        Duration age = Duration.ZERO;
        if (olderThan != null) {
            try {
                age = Duration.parse(olderThan);
                if (age.isNegative()) {
                    errors.add(new ApiProblem.FieldError("older_than", "must not be negative"));
                } else if (age.compareTo(MAX_OLDER_THAN) > 0) {
                    errors.add(new ApiProblem.FieldError("older_than", "must be at most P36500D (a century)"));
                }
            } catch (DateTimeParseException e) {
                errors.add(new ApiProblem.FieldError("older_than", "must be an ISO-8601 duration, e.g. PT1M or P1D"));
            }
        }
        if (limit != null && (limit < 1 || limit > MAX_LIMIT)) {
            errors.add(new ApiProblem.FieldError("limit", "must be between 1 and " + MAX_LIMIT));
        }
        if (!errors.isEmpty()) {
            throw invalid(errors.size() + " invalid field(s)", errors);
        }
        return new ByAge(knownStatus, age, limit == null ? MAX_LIMIT : limit);
    }

    private static ApiProblem.FieldError notWithAnIntent(String field) {
        return new ApiProblem.FieldError(field, "cannot be combined with user_id and idempotency_key");
    }

    private static ApiProblem invalid(String detail, List<ApiProblem.FieldError> errors) {
        return new ApiProblem(StandardProblem.VALIDATION_FAILED, detail, errors);
    }
}
