package com.example.order.web;

import java.net.URI;
import java.util.UUID;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import com.example.order.Cancellation;
import com.example.order.OrderService;
import com.example.order.OrderStatus;
import com.example.order.PlaceOrder;
import com.example.order.Placement;
import com.example.service.security.Caller;
import com.example.service.web.ApiProblem;
import com.example.service.web.StandardProblem;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import reactor.core.publisher.Mono;

@RestController
@RequestMapping(path = "/orders", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "orders", description = "Placing orders idempotently, reading them, and finding the ones that wait")
class OrderController {

    /** Marks a response that returns an order created by an earlier request for the same intent. */
    static final String REPLAYED = "Idempotent-Replayed";

    private final OrderService orders;

    OrderController(OrderService orders) {
        this.orders = orders;
    }

    @Operation(operationId = "placeOrder", summary = "Place an order, idempotently",
            description = "The pair (user_id, idempotency_key) names one intent. The first request creates the "
                    + "order (201); any later or concurrent request with the same payload gets that order as it "
                    + "is now (200, Idempotent-Replayed: true); the same key with a different payload is refused (422).",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(
                    mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = CreateOrderRequest.class),
                    examples = @ExampleObject(name = "with a coupon", value = """
                            {"user_id": 42, "sku_ids": [1001, 1002, 1002],
                             "idempotency_key": "5b6f0f8e-8a53-4c6e-9a34-2d1b3c9e7f10", "coupon_code": "WELCOME10"}"""))))
    @ApiResponse(responseCode = "201", description = "Order created", headers = @Header(name = HttpHeaders.LOCATION,
            description = "/orders/{order_id} of the new order", schema = @Schema(type = "string")))
    @ApiResponse(responseCode = "200", description = "Replay: the order created earlier for this intent, as it is now",
            headers = @Header(name = REPLAYED, description = "Always true on a replay",
                    schema = @Schema(type = "string", allowableValues = "true")))
    @ApiResponse(responseCode = "400", description = "Invalid request (problem with errors)")
    @ApiResponse(responseCode = "413", description = "Body over 64 KiB")
    @ApiResponse(responseCode = "415", description = "Not application/json")
    @ApiResponse(responseCode = "403", description = "The token lacks scope orders or admin, or user_id is not its "
            + "subject (a customer places orders for themselves)")
    @ApiResponse(responseCode = "422", description = "Idempotency key reused with a different payload")
    @ApiResponse(responseCode = "503", description = "Database unavailable; nothing happened: retry with the same key")
    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    Mono<ResponseEntity<OrderResponse>> create(@Valid @RequestBody CreateOrderRequest request,
            @Parameter(hidden = true) @RequestHeader(name = "traceparent", required = false) String traceparent) {
        PlaceOrder command = new PlaceOrder(request.userId(), request.skuIds(), request.idempotencyKey(),
                request.couponCode(), traceparent);
        return Caller.current().flatMap(caller -> {
            if (!caller.mayActFor(request.userId())) {
                return Mono.error(new ApiProblem(StandardProblem.FORBIDDEN, "user_id " + request.userId()
                        + " is not the user this token was issued to: a customer places orders for themselves"));
            }
            return orders.place(command).map(OrderController::respond);
        });
    }

    private static ResponseEntity<OrderResponse> respond(Placement placement) {
        OrderResponse body = OrderResponse.of(placement.order());
        if (placement instanceof Placement.Created) {
            return ResponseEntity.created(URI.create("/orders/" + body.orderId())).body(body);
        }
        if (placement instanceof Placement.Replayed) {
            return ResponseEntity.status(HttpStatus.OK).header(REPLAYED, "true").body(body);
        }
        throw new ApiProblem(OrderProblem.IDEMPOTENCY_KEY_REUSED, "idempotency_key was already used by this user "
                + "for a different request (order " + body.orderId() + "); use a new key for a new order");
    }

    @Operation(operationId = "getOrder", summary = "Get an order by id")
    @ApiResponse(responseCode = "200", description = "The order")
    @ApiResponse(responseCode = "404", description = "No such order (another user's order is not shown to a customer)")
    @GetMapping("/{order_id}")
    Mono<OrderResponse> get(@PathVariable("order_id") long orderId) {
        return Caller.current().flatMap(caller -> orders.find(orderId)
                .filter(order -> caller.mayActFor(order.userId())).map(OrderResponse::of)
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("order " + orderId + " does not exist"))));
    }

    @Operation(operationId = "cancelOrder", summary = "Cancel an order, idempotently",
            description = "The owner or an operator cancels a CREATED or CONFIRMED order: it becomes CANCELLED, and "
                    + "what its steps did is undone (stock released, coupon active again, payment refunded). "
                    + "Asking again answers with the order as it is (Idempotent-Replayed: true). A REJECTED order "
                    + "was undone by its rejection: 409.")
    @ApiResponse(responseCode = "200", description = "The order, now CANCELLED", headers = @Header(name = REPLAYED,
            description = "true when an earlier request cancelled it", schema = @Schema(type = "string",
                    allowableValues = "true")))
    @ApiResponse(responseCode = "404", description = "No such order (another user's order is not shown to a customer)")
    @ApiResponse(responseCode = "409", description = "The order was rejected: nothing to cancel")
    @PostMapping("/{order_id}/cancellation")
    Mono<ResponseEntity<OrderResponse>> cancel(@PathVariable("order_id") long orderId) {
        return Caller.current().flatMap(caller -> orders.cancel(orderId, caller::mayActFor,
                        caller.admin() ? "an operator" : "its owner"))
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("order " + orderId + " does not exist")))
                .map(OrderController::respond);
    }

    private static ResponseEntity<OrderResponse> respond(Cancellation cancellation) {
        OrderResponse body = OrderResponse.of(cancellation.order());
        return switch (cancellation.outcome()) {
            case CANCELLED -> ResponseEntity.ok(body);
            case ALREADY_CANCELLED -> ResponseEntity.ok().header(REPLAYED, "true").body(body);
            case FINAL -> throw new ApiProblem(OrderProblem.ORDER_FINAL, "order " + body.orderId() + " is "
                    + body.status() + ": its rejection already undid what it could, so there is nothing to cancel");
        };
    }

    @Operation(operationId = "findOrders", summary = "Find the order made for an intent, or the orders waiting in a status",
            description = """
                    Two questions, told apart by their parameters; a request asks exactly one of them, otherwise 400.

                    - `user_id` and `idempotency_key`: the order made for that intent, as an object. 404 means the \
                    operation did not happen: a retry with the same key is safe.
                    - `status`, with `older_than` and `limit` (operators): the orders in that status placed longer \
                    ago than `older_than`, oldest first, at most `limit`, as an array: what is stuck, and at which step.""")
    @ApiResponse(responseCode = "200", description = "The order made for the intent (an object), or the orders in the "
            + "status (an array, oldest first, possibly empty)", content = @Content(
                    mediaType = MediaType.APPLICATION_JSON_VALUE,
                    schema = @Schema(oneOf = { OrderResponse.class, OrderList.class }),
                    examples = {
                        @ExampleObject(name = "the order of an intent", value = """
                                {"order_id": 123, "user_id": 42, "status": "CONFIRMED", "sku_ids": [1001, 1002, 1002],
                                 "coupon_code": "WELCOME10", "created_at": "2026-11-30T10:15:30.123Z",
                                 "updated_at": "2026-11-30T10:15:30.456Z",
                                 "steps": {"inventory": "OK", "coupon": "OK", "risk": "OK", "payment": "OK"}, "rejection_reason": null}"""),
                        @ExampleObject(name = "orders CREATED for longer than PT1M", value = """
                                [{"order_id": 97, "user_id": 7, "status": "CREATED", "sku_ids": [1001],
                                  "coupon_code": null, "created_at": "2026-11-30T10:01:02.000Z",
                                  "updated_at": "2026-11-30T10:01:02.150Z",
                                  "steps": {"inventory": "OK", "coupon": "NOT_NEEDED", "risk": "PENDING",
                                            "payment": "PENDING"},
                                  "rejection_reason": null}]""") }))
    @ApiResponse(responseCode = "400", description = "Neither question, both, or invalid parameters (problem with errors)")
    @ApiResponse(responseCode = "403", description = "Listing by status needs scope admin")
    @ApiResponse(responseCode = "404", description = "No order was made for this intent (a customer asking about "
            + "another user's intent gets the same)")
    @GetMapping
    Mono<?> find(
            @Parameter(description = "With idempotency_key: the user whose intent to look up")
            @RequestParam(name = "user_id", required = false) Long userId,
            @Parameter(description = "With user_id: the key of the intent")
            @RequestParam(name = "idempotency_key", required = false) UUID idempotencyKey,
            @Parameter(description = "The status to list orders in", schema = @Schema(implementation = OrderStatus.class))
            @RequestParam(name = "status", required = false) String status,
            @Parameter(description = "With status: only orders placed longer ago than this ISO-8601 duration (default "
                    + "PT0S: all)", example = "PT1M", schema = @Schema(type = "string"))
            @RequestParam(name = "older_than", required = false) String olderThan,
            @Parameter(description = "With status: the most orders to list", schema = @Schema(type = "integer",
                    format = "int32", minimum = "1", maximum = "" + OrderQuery.MAX_LIMIT, defaultValue = ""
                            + OrderQuery.MAX_LIMIT))
            @RequestParam(name = "limit", required = false) Integer limit) {
        OrderQuery query;
        try {
            query = OrderQuery.of(userId, idempotencyKey, status, olderThan, limit);
        } catch (ApiProblem invalid) {
            return Mono.error(invalid);
        }
        return Caller.current().flatMap(caller -> {
            if (query instanceof OrderQuery.ByIntent intent) {
                return findByIntent(caller, intent.userId(), intent.idempotencyKey());
            }
            if (!caller.admin()) {
                return Mono.error(new ApiProblem(StandardProblem.FORBIDDEN,
                        "Listing orders by status is for operators (scope admin)"));
            }
            OrderQuery.ByAge byAge = (OrderQuery.ByAge) query;
            return orders.findOlderThan(byAge.status(), byAge.olderThan(), byAge.limit()).map(OrderResponse::of)
                    .collectList().map(OrderList::new);
        });
    }

    private Mono<OrderResponse> findByIntent(Caller caller, long userId, UUID idempotencyKey) {
        Mono<OrderResponse> found = caller.mayActFor(userId)
                ? orders.findByIntent(userId, idempotencyKey).map(OrderResponse::of)
                : Mono.empty();
        return found
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("no order was made for user " + userId
                        + " with idempotency_key " + idempotencyKey
                        + ": the operation did not happen, and a retry with the same key is safe")));
    }
}
