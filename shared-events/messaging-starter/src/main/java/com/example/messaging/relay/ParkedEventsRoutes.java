package com.example.messaging.relay;

import java.util.Map;
import java.util.UUID;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

import com.example.events.EventJson;
import com.example.service.web.ApiProblem;

import reactor.core.publisher.Mono;

/**
 * Operator endpoints for parked outbox rows: list them, and requeue one or all (attempts back to 0,
 * due now) once the cause is fixed. Bodies are written with {@link EventJson}, like every other
 * JSON of the system, so the names are snake_case whatever the web layer is configured with; refusals are
 * {@link ApiProblem}s, rendered by the service starter like every other error.
 */
final class ParkedEventsRoutes {

    static final String PATH = "/outbox/parked";
    private static final int DEFAULT_LIMIT = 100;
    private static final int MAX_LIMIT = 1000;

    private final OutboxStore store;
    private final OutboxRelay relay;

    ParkedEventsRoutes(OutboxStore store, OutboxRelay relay) {
        this.store = store;
        this.relay = relay;
    }

    RouterFunction<ServerResponse> routes() {
        return RouterFunctions.route()
                .GET(PATH, this::list)
                .POST(PATH + "/requeue", this::requeueAll)
                .POST(PATH + "/{id}/requeue", this::requeueOne)
                .build();
    }

    private Mono<ServerResponse> list(ServerRequest request) {
        int limit;
        try {
            limit = request.queryParam("limit").map(Integer::parseInt).orElse(DEFAULT_LIMIT);
        } catch (NumberFormatException e) {
            return Mono.error(ApiProblem.invalid("limit", "must be an integer"));
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            return Mono.error(ApiProblem.invalid("limit", "must be between 1 and " + MAX_LIMIT));
        }
        return store.parked(limit).collectList().flatMap(parked -> json(HttpStatus.OK, parked));
    }

    private Mono<ServerResponse> requeueOne(ServerRequest request) {
        UUID id;
        try {
            id = UUID.fromString(request.pathVariable("id"));
        } catch (IllegalArgumentException e) {
            return Mono.error(ApiProblem.invalid("id", "must be a UUID"));
        }
        return store.requeue(id).flatMap(updated -> {
            if (updated == 0) {
                return Mono.error(ApiProblem.notFound("no parked outbox event " + id));
            }
            relay.wake();
            return json(HttpStatus.OK, Map.of("requeued", updated));
        });
    }

    private Mono<ServerResponse> requeueAll(ServerRequest request) {
        return store.requeueAll().flatMap(updated -> {
            relay.wake();
            return json(HttpStatus.OK, Map.of("requeued", updated));
        });
    }

    private static Mono<ServerResponse> json(HttpStatus status, Object body) {
        return ServerResponse.status(status).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(EventJson.mapper().writeValueAsString(body));
    }
}
