package com.example.messaging.relay;

import java.util.List;
import java.util.UUID;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import com.example.service.web.ApiProblem;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import reactor.core.publisher.Mono;

/**
 * Operator endpoints for parked outbox rows: list them, and requeue one or all (attempts back to 0,
 * due now) once the cause is fixed. A controller like the services' own, so that it is described in their
 * API description; registered by {@link RelayAutoConfiguration}, never found by component scanning (no
 * service lives in this package). Refusals are {@link ApiProblem}s, rendered by the service starter like
 * every other error.
 */
@RestController
@RequestMapping(path = ParkedEventsController.PATH, produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "outbox", description = "Operators: outbox events the broker kept refusing (parked), and requeueing them")
class ParkedEventsController {

    static final String PATH = "/admin/outbox/parked";
    private static final int MAX_LIMIT = 1000;

    private final OutboxStore store;
    private final OutboxRelay relay;

    ParkedEventsController(OutboxStore store, OutboxRelay relay) {
        this.store = store;
        this.relay = relay;
    }

    @Operation(operationId = "listParkedOutboxEvents", summary = "List this service's parked outbox events",
            description = "Oldest first. A parked event is no longer published, and holds back the later events "
                    + "of its aggregate, until it is requeued.")
    @ApiResponse(responseCode = "200", description = "The parked events, oldest first")
    @GetMapping
    Mono<List<OutboxStore.ParkedEvent>> list(@Parameter(description = "How many to list, 1 to " + MAX_LIMIT,
            schema = @Schema(minimum = "1", maximum = "" + MAX_LIMIT)) @RequestParam(name = "limit",
                    defaultValue = "100") int limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            return Mono.error(ApiProblem.invalid("limit", "must be between 1 and " + MAX_LIMIT));
        }
        return store.parked(limit).collectList();
    }

    @Operation(operationId = "requeueParkedOutboxEvent", summary = "Requeue one parked outbox event",
            description = "The event is published again at once, from a fresh attempt count.")
    @ApiResponse(responseCode = "200", description = "Requeued: {\"requeued\": 1}")
    @ApiResponse(responseCode = "404", description = "No parked outbox event has that id")
    @PostMapping("/{id}/requeue")
    Mono<Requeued> requeueOne(@PathVariable("id") UUID id) {
        return store.requeue(id).flatMap(updated -> {
            if (updated == 0) {
                return Mono.error(ApiProblem.notFound("no parked outbox event " + id));
            }
            relay.wake();
            return Mono.just(new Requeued(updated));
        });
    }

    @Operation(operationId = "requeueParkedOutboxEvents", summary = "Requeue every parked outbox event",
            description = "Every parked event of this service is published again at once, from a fresh attempt "
                    + "count.")
    @ApiResponse(responseCode = "200", description = "How many were requeued")
    @PostMapping("/requeue")
    Mono<Requeued> requeueAll() {
        return store.requeueAll().map(updated -> {
            relay.wake();
            return new Requeued(updated);
        });
    }

    @Schema(name = "Requeued", description = "How many parked outbox events were made publishable again")
    record Requeued(long requeued) {
    }
}
