package com.example.risk.web;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import com.example.service.web.ApiProblem;
import com.example.risk.RiskAssessor;

import reactor.core.publisher.Mono;

@RestController
@RequestMapping(path = "/assessments", produces = MediaType.APPLICATION_JSON_VALUE)
class AssessmentController {

    private final RiskAssessor assessor;

    AssessmentController(RiskAssessor assessor) {
        this.assessor = assessor;
    }

    @GetMapping("/{orderId}")
    Mono<AssessmentResponse> get(@PathVariable long orderId) {
        return assessor.find(orderId).map(AssessmentResponse::of)
                .switchIfEmpty(Mono.error(() -> ApiProblem.notFound("order " + orderId + " has not been assessed yet")));
    }
}
