package com.example.messaging.deadletter;

import java.util.List;
import java.util.concurrent.TimeoutException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.AmqpException;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import com.example.events.Subscriptions;
import com.example.messaging.inbox.InboxQueues;
import com.example.service.failure.Failures;
import com.example.service.web.ApiProblem;
import com.example.service.web.StandardProblem;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Operator endpoints for this service's dead-letter queues: how many messages each holds, and moving them back to
 * their queue once the cause is fixed (safe: the inbox skips an event it has applied). The queues are the inbox's
 * ({@link InboxQueues}), never one named by the caller alone. The broker is asked off the event loop; a broker
 * that cannot be reached is a 503 problem, as an unreachable database is. Registered by
 * {@link DeadLetterAutoConfiguration}, never found by component scanning.
 */
@RestController
@RequestMapping(path = DeadLettersController.PATH, produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "dead-letters", description = "Operators: this service's dead-letter queues, and moving their messages "
        + "back to their queues")
class DeadLettersController {

    static final String PATH = "/admin/dead-letters";

    private static final Logger log = LoggerFactory.getLogger(DeadLettersController.class);

    private final DeadLetterMonitor monitor;
    private final DeadLetterBroker broker;

    DeadLettersController(DeadLetterMonitor monitor, DeadLetterBroker broker) {
        this.monitor = monitor;
        this.broker = broker;
    }

    @Operation(operationId = "listDeadLetterQueues", summary = "List this service's dead-letter queues",
            description = "One entry per queue the service consumes from, empty ones included, with the messages "
                    + "ready in it now (read from the broker).")
    @ApiResponse(responseCode = "200", description = "Each dead-letter queue and its messages")
    @GetMapping
    Mono<List<DeadLetterQueue>> list() {
        return monitor.refresh()
                .map(depths -> depths.entrySet().stream()
                        .map(depth -> new DeadLetterQueue(depth.getKey(), depth.getValue()))
                        .toList())
                .onErrorMap(DeadLettersController::brokerFailure, DeadLettersController::unreachable);
    }

    @Operation(operationId = "redriveDeadLetters", summary = "Move a dead-letter queue's messages back to their queue",
            description = "Moves the messages the dead-letter queue holds when the request arrives back to the queue "
                    + "it serves (its name without .dlq), each one acknowledged in the dead-letter queue only after the "
                    + "broker confirmed its copy: at least once, never lost. Safe to repeat: consumers skip an event "
                    + "they have applied. Messages that fail again come back to the dead-letter queue and are not "
                    + "moved again by the same request.")
    @ApiResponse(responseCode = "200", description = "How many messages were moved")
    @ApiResponse(responseCode = "404", description = "Not a dead-letter queue of this service")
    @PostMapping("/{queue}/redrive")
    Mono<Redriven> redrive(@PathVariable("queue") String deadLetterQueue) {
        if (!monitor.queues().contains(deadLetterQueue)) {
            return Mono.error(ApiProblem.notFound(deadLetterQueue + " is not a dead-letter queue of this service; "
                    + "its dead-letter queues are " + monitor.queues()));
        }
        String queue = deadLetterQueue.substring(0, deadLetterQueue.length() - Subscriptions.DEAD_LETTER_SUFFIX.length());
        return Mono.fromCallable(() -> broker.redrive(deadLetterQueue, queue))
                .subscribeOn(Schedulers.boundedElastic())
                .doOnNext(moved -> log.info("Operator moved {} message(s) from {} back to {}", moved, deadLetterQueue,
                        queue))
                // The gauges and the health indicator show the move at once; their figures are not the answer.
                .flatMap(moved -> monitor.refresh().onErrorResume(failure -> Mono.empty()).thenReturn(new Redriven(moved)))
                .onErrorMap(DeadLetterBroker.RedriveFailed.class, failed -> {
                    log.warn("Moving the messages of {} back to {} failed", deadLetterQueue, queue, failed);
                    return unavailable("RabbitMQ failed or refused: " + failed.getMessage() + ". The messages not "
                            + "moved are still in " + deadLetterQueue + "; retrying the same request is safe.");
                })
                .onErrorMap(DeadLettersController::brokerFailure, DeadLettersController::unreachable);
    }

    private static boolean brokerFailure(Throwable failure) {
        return failure instanceof AmqpException || failure instanceof TimeoutException;
    }

    /** Like an unreachable database: the request did not happen and may be retried. */
    private static ApiProblem unreachable(Throwable failure) {
        log.warn("RabbitMQ did not answer an operator request: {}", Failures.describe(failure));
        return unavailable("RabbitMQ is not reachable right now. Retry the same request.");
    }

    private static ApiProblem unavailable(String detail) {
        return new ApiProblem(StandardProblem.SERVICE_UNAVAILABLE, detail);
    }

    @Schema(name = "DeadLetterQueue", description = "A dead-letter queue of this service")
    record DeadLetterQueue(
            @Schema(description = "Its name: <exchange>.<service>.dlq", example = "order.events.inventory-service.dlq")
            String queue,
            @Schema(description = "Messages ready in it") long messages) {
    }

    @Schema(name = "Redriven", description = "How many messages were moved back to their queue")
    record Redriven(long moved) {
    }
}
