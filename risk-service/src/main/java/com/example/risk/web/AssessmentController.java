package com.example.risk.web;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import com.example.risk.RiskAssessor;
import com.example.service.web.ApiProblem;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import reactor.core.publisher.Mono;

@RestController
@RequestMapping(path = "/assessments", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "assessments", description = "How the risk rules judged each order")
class AssessmentController {

    private final RiskAssessor assessor;

    AssessmentController(RiskAssessor assessor) {
        this.assessor = assessor;
    }

    @Operation(operationId = "getAssessment", summary = "Get an order's risk assessment")
    @ApiResponse(responseCode = "200", description = "The order's assessment")
    @ApiResponse(responseCode = "404", description = "The order has not been assessed yet")
    @GetMapping("/{order_id}")
    Mono<AssessmentResponse> get(@PathVariable("order_id") long orderId) {
        return assessor.find(orderId).map(AssessmentResponse::of)
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("order " + orderId + " has not been assessed yet")));
    }
}
