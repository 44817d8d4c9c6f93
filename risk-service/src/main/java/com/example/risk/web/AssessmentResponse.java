package com.example.risk.web;

import java.util.List;

import com.example.risk.Assessment;
import com.example.risk.RiskDecision;

import io.swagger.v3.oas.annotations.media.Schema;

/** An order's assessment as the contract shows it. */
@Schema(name = "Assessment")
record AssessmentResponse(long orderId, RiskDecision decision, List<String> reasons) {

    static AssessmentResponse of(Assessment assessment) {
        return new AssessmentResponse(assessment.orderId(), assessment.decision(), assessment.reasons());
    }
}
