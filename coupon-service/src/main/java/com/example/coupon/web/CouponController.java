package com.example.coupon.web;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import com.example.coupon.Coupons;
import com.example.events.CouponCodes;
import com.example.service.web.ApiProblem;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import reactor.core.publisher.Mono;

@RestController
@RequestMapping(path = "/coupons", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "coupons", description = "Coupons and who redeemed them")
class CouponController {

    private final Coupons coupons;

    CouponController(Coupons coupons) {
        this.coupons = coupons;
    }

    /** Creates the coupon or changes its discount (for operators, demos and tests); a holder keeps it. */
    @Operation(operationId = "defineCoupon", summary = "Create a coupon or change its discount",
            description = "A coupon already redeemed keeps its holder.")
    @ApiResponse(responseCode = "200", description = "The coupon now")
    @PutMapping(path = "/{code}", consumes = MediaType.APPLICATION_JSON_VALUE)
    Mono<CouponResponse> define(@PathVariable String code, @Valid @RequestBody DefineCouponRequest request) {
        return coupons.define(valid(code), request.discountPercent()).map(CouponResponse::of);
    }

    @Operation(operationId = "getCoupon", summary = "Get a coupon")
    @ApiResponse(responseCode = "200", description = "The coupon")
    @ApiResponse(responseCode = "404", description = "No such coupon")
    @GetMapping("/{code}")
    Mono<CouponResponse> get(@PathVariable String code) {
        return coupons.find(valid(code)).map(CouponResponse::of)
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("coupon " + code + " does not exist")));
    }

    private static String valid(String code) {
        if (!CouponCodes.isValid(code)) {
            throw ApiProblem.invalid("code", "must be 1 to 64 of A-Z a-z 0-9 _ -");
        }
        return code;
    }
}
