package com.example.paymentsimulator.web;

import java.net.URI;
import java.util.function.Function;

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
import org.springframework.web.server.ServerWebExchange;

import com.example.paymentsimulator.Charge;
import com.example.paymentsimulator.Charges;
import com.example.paymentsimulator.Outcome;
import com.example.paymentsimulator.Refund;
import com.example.service.web.ApiProblem;
import com.example.service.web.ProblemType;
import com.example.service.web.StandardProblem;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.headers.Header;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import reactor.core.publisher.Mono;

@RestController
@RequestMapping(path = "/charges", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "charges", description = "The provider's API: idempotent charges and refunds, behind its API key")
class ChargeController {

    /** Marks an answer given again to a request with the same idempotency key and the same request. */
    static final String REPLAYED = "Idempotent-Replayed";
    private static final String KEY_DESCRIPTION = "Names one charge or refund: the same key with the same request is "
            + "a replay. Bare or as a structured-field string (in double quotes); 1 to 255 visible ASCII characters.";
    private static final String UNAVAILABLE = "An injected failure (error_before_percent) or the ledger's database is "
            + "away; nothing was done: retry the same request with the same key";

    private final Charges charges;
    private final UnknownOutcome unknownOutcome;

    ChargeController(Charges charges, UnknownOutcome unknownOutcome) {
        this.charges = charges;
        this.unknownOutcome = unknownOutcome;
    }

    @Operation(operationId = "createCharge", summary = "Charge an amount, idempotently",
            description = "The first request with an Idempotency-Key makes the charge (201), succeeded or declined; "
                    + "any later or concurrent request with the same key and body gets the same charge (200, "
                    + "Idempotent-Replayed: true); the same key with another body is refused (422). Whether it is "
                    + "declined is decided once, when it is made. A fault may withhold the answer after the charge is "
                    + "made (timeout_after_charge_percent): look it up with GET /charges?idempotency_key=.")
    @ApiResponse(responseCode = "201", description = "Charge made", headers = @Header(name = HttpHeaders.LOCATION,
            description = "/charges/{charge_id} of the new charge", schema = @Schema(type = "string")))
    @ApiResponse(responseCode = "200", description = "Replay: the charge made earlier with this key", headers = @Header(
            name = REPLAYED, description = "Always true on a replay", schema = @Schema(type = "string",
                    allowableValues = "true")))
    @ApiResponse(responseCode = "400", description = "No Idempotency-Key, or an invalid body (problem with errors)")
    @ApiResponse(responseCode = "401", description = "No API key, or not the simulator's")
    @ApiResponse(responseCode = "422", description = "Idempotency-Key used before with a different body")
    @ApiResponse(responseCode = "503", description = UNAVAILABLE)
    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    Mono<ResponseEntity<ChargeResponse>> create(
            @Parameter(description = KEY_DESCRIPTION) @RequestHeader(IdempotencyKeys.HEADER) String idempotencyKey,
            @Valid @RequestBody ChargeRequest request, ServerWebExchange exchange) {
        String key = IdempotencyKeys.parse(IdempotencyKeys.HEADER, idempotencyKey);
        return charges.charge(key, request.amountCents(), request.reference())
                .map(ChargeController::chargeAnswer)
                .flatMap(response -> unknownOutcome.answerOrWithhold(exchange, response));
    }

    @Operation(operationId = "findCharge", summary = "Find the charge made with an idempotency key",
            description = "What a caller whose request timed out asks: 404 means no charge was made with the key, "
                    + "and a retry with the same key is safe.")
    @ApiResponse(responseCode = "200", description = "The charge made with the key")
    @ApiResponse(responseCode = "404", description = "No charge was made with this key")
    @ApiResponse(responseCode = "401", description = "No API key, or not the simulator's")
    @ApiResponse(responseCode = "503", description = UNAVAILABLE)
    @GetMapping
    Mono<ChargeResponse> findByKey(@Parameter(description = "The Idempotency-Key the charge was requested with")
            @RequestParam("idempotency_key") String idempotencyKey) {
        String key = IdempotencyKeys.parse("idempotency_key", idempotencyKey);
        return charges.findByKey(key).map(ChargeResponse::of)
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("no charge was made with this idempotency key")));
    }

    @Operation(operationId = "getCharge", summary = "Get a charge by id")
    @ApiResponse(responseCode = "200", description = "The charge")
    @ApiResponse(responseCode = "404", description = "No such charge")
    @ApiResponse(responseCode = "401", description = "No API key, or not the simulator's")
    @ApiResponse(responseCode = "503", description = UNAVAILABLE)
    @GetMapping("/{charge_id}")
    Mono<ChargeResponse> get(@PathVariable("charge_id") String chargeId) {
        return charges.find(chargeId).map(ChargeResponse::of)
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("charge " + chargeId + " does not exist")));
    }

    @Operation(operationId = "refundCharge", summary = "Refund a whole charge, idempotently",
            description = "Takes no body: a refund is always of the whole amount, and a charge has at most one. The "
                    + "first request with an Idempotency-Key makes the refund (201); the same key again gets the same "
                    + "refund (200, Idempotent-Replayed: true). A fault may withhold the answer after the refund is "
                    + "made (timeout_after_charge_percent): ask again with the same key.")
    @ApiResponse(responseCode = "201", description = "Refund made")
    @ApiResponse(responseCode = "200", description = "Replay: the refund made earlier with this key", headers = @Header(
            name = REPLAYED, description = "Always true on a replay", schema = @Schema(type = "string",
                    allowableValues = "true")))
    @ApiResponse(responseCode = "400", description = "No Idempotency-Key (problem with errors)")
    @ApiResponse(responseCode = "401", description = "No API key, or not the simulator's")
    @ApiResponse(responseCode = "404", description = "No such charge")
    @ApiResponse(responseCode = "409", description = "The charge was refunded already under another key, or it was "
            + "declined")
    @ApiResponse(responseCode = "422", description = "Idempotency-Key used before for the refund of another charge")
    @ApiResponse(responseCode = "503", description = UNAVAILABLE)
    @PostMapping("/{charge_id}/refunds")
    Mono<ResponseEntity<RefundResponse>> refund(@PathVariable("charge_id") String chargeId,
            @Parameter(description = KEY_DESCRIPTION) @RequestHeader(IdempotencyKeys.HEADER) String idempotencyKey,
            ServerWebExchange exchange) {
        String key = IdempotencyKeys.parse(IdempotencyKeys.HEADER, idempotencyKey);
        return charges.refund(chargeId, key)
                .map(ChargeController::refundAnswer)
                .flatMap(response -> unknownOutcome.answerOrWithhold(exchange, response));
    }

    private static ResponseEntity<ChargeResponse> chargeAnswer(Outcome<Charge> outcome) {
        if (outcome instanceof Outcome.Made<Charge> made) {
            ChargeResponse body = ChargeResponse.of(made.value());
            return ResponseEntity.created(URI.create("/charges/" + body.chargeId())).body(body);
        }
        return replayOrRefusal(outcome, ChargeResponse::of);
    }

    private static ResponseEntity<RefundResponse> refundAnswer(Outcome<Refund> outcome) {
        if (outcome instanceof Outcome.Made<Refund> made) {
            return ResponseEntity.status(HttpStatus.CREATED).body(RefundResponse.of(made.value()));
        }
        return replayOrRefusal(outcome, RefundResponse::of);
    }

    /** The answer to an outcome other than {@link Outcome.Made}. */
    private static <T, B> ResponseEntity<B> replayOrRefusal(Outcome<T> outcome, Function<T, B> body) {
        if (outcome instanceof Outcome.Replayed<T> replayed) {
            return ResponseEntity.ok().header(REPLAYED, "true").body(body.apply(replayed.value()));
        }
        Outcome.Refused<T> refused = (Outcome.Refused<T>) outcome;
        throw new ApiProblem(problem(refused.reason()), refused.detail());
    }

    private static ProblemType problem(Outcome.Refusal refusal) {
        return switch (refusal) {
            case KEY_REUSED -> SimulatorProblem.IDEMPOTENCY_KEY_REUSED;
            case NO_SUCH_CHARGE -> StandardProblem.NOT_FOUND;
            case ALREADY_REFUNDED -> SimulatorProblem.ALREADY_REFUNDED;
            case CHARGE_DECLINED -> SimulatorProblem.CHARGE_DECLINED;
        };
    }
}
