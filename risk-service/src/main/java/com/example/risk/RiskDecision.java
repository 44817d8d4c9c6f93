package com.example.risk;

/** The outcome of an assessment. */
public enum RiskDecision {
    APPROVED, REJECTED
}
