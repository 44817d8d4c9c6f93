package com.example.risk.web;

import java.util.List;

import com.example.risk.Assessment;
import com.example.risk.RiskDecision;

/** An order's assessment as the contract shows it. */
record AssessmentResponse(long orderId, RiskDecision decision, List<String> reasons) {

    static AssessmentResponse of(Assessment assessment) {
        return new AssessmentResponse(assessment.orderId(), assessment.decision(), assessment.reasons());
    }
}
