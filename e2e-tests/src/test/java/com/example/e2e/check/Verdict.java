package com.example.e2e.check;

import java.util.List;

/**
 * The checker's judgement of one invariant: passed, or the violations found (the first few are kept
 * word for word, all are counted).
 */
public record Verdict(Invariant invariant, boolean passed, long violationCount, List<String> violations) {

    static final int KEPT = 20;

    public Verdict {
        violations = List.copyOf(violations);
    }

    static Verdict of(Invariant invariant, List<String> violations) {
        return new Verdict(invariant, violations.isEmpty(), violations.size(),
                violations.subList(0, Math.min(KEPT, violations.size())));
    }

    @Override
    public String toString() {
        return (passed ? "PASS " : "FAIL ") + invariant + (passed ? "" : " (" + violationCount + "): " + violations);
    }
}
