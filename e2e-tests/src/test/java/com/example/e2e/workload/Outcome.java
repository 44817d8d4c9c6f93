package com.example.e2e.workload;

/** What the client knows at the end of an intent's attempts. */
public enum Outcome {
    /** 201 or 200: the order exists, and the client has its id. */
    ACKED,
    /** A final 4xx: the request was refused; no order may exist. */
    FAILED,
    /** Retries ran out on timeouts, connection errors or 5xx: there may be an order, or none. */
    UNKNOWN
}
