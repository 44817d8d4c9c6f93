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

import com.example.order.OrderService;
import com.example.order.PlaceOrder;
import com.example.order.Placement;
import com.example.service.web.ApiProblem;

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
@Tag(name = "orders", description = "Placing orders idempotently, and reading them")
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
    @ApiResponse(responseCode = "422", description = "Idempotency key reused with a different payload")
    @ApiResponse(responseCode = "503", description = "Database unavailable; nothing happened: retry with the same key")
    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    Mono<ResponseEntity<OrderResponse>> create(@Valid @RequestBody CreateOrderRequest request,
            @Parameter(hidden = true) @RequestHeader(name = "traceparent", required = false) String traceparent) {
        PlaceOrder command = new PlaceOrder(request.userId(), request.skuIds(), request.idempotencyKey(),
                request.couponCode(), traceparent);
        return orders.place(command).map(OrderController::respond);
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
    @ApiResponse(responseCode = "404", description = "No such order")
    @GetMapping("/{order_id}")
    Mono<OrderResponse> get(@PathVariable("order_id") long orderId) {
        return orders.find(orderId).map(OrderResponse::of)
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("order " + orderId + " does not exist")));
    }

    @Operation(operationId = "findOrderByIntent", summary = "Find the order made for an intent",
            description = "404 means the operation did not happen: a retry with the same key is safe.")
    @ApiResponse(responseCode = "200", description = "The order made for this intent")
    @ApiResponse(responseCode = "404", description = "No order was made for this intent")
    @GetMapping(params = { "user_id", "idempotency_key" })
    Mono<OrderResponse> findByIntent(@RequestParam("user_id") long userId,
            @RequestParam("idempotency_key") UUID idempotencyKey) {
        return orders.findByIntent(userId, idempotencyKey).map(OrderResponse::of)
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("no order was made for user " + userId
                        + " with idempotency_key " + idempotencyKey
                        + ": the operation did not happen, and a retry with the same key is safe")));
    }
}
