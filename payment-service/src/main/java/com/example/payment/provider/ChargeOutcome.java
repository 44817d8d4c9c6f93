package com.example.payment.provider;

/**
 * What the provider said about a charge, or that it said nothing conclusive. Never an exception: a worker that asks
 * the provider must always be able to decide what to record.
 */
public sealed interface ChargeOutcome {

    /** The provider charged the amount. */
    record Charged(String chargeId, long amountCents) implements ChargeOutcome {
    }

    /** The provider declined the charge: no money moved, and none will under this key. */
    record Declined(String chargeId) implements ChargeOutcome {
    }

    /** The provider has no charge under the key (a look-up's 404): it never charged, so asking again is safe. */
    record NotFound() implements ChargeOutcome {
    }

    /**
     * No conclusive answer: a timeout after the request was sent, a dropped connection, 5xx after the quick retries.
     * The charge may or may not have happened; only asking the provider again under the same key can tell.
     */
    record Unknown(String reason) implements ChargeOutcome {
    }

    /**
     * The provider refused the request itself (a 4xx such as a wrong API key, or the key reused with another
     * body): nothing to do but tell an operator, and keep asking, since what the key did is not known either.
     */
    record Refused(int status, String detail) implements ChargeOutcome {
    }
}
