package com.example.events.web;

import java.net.URI;

import org.springframework.http.HttpStatus;

/**
 * The kinds of error a client can receive, each with a stable {@code type} URI and whether
 * retrying the same request can succeed.
 */
public enum ProblemType {

    VALIDATION_FAILED("validation-failed", HttpStatus.BAD_REQUEST, "Request is not valid", false),
    MALFORMED_REQUEST("malformed-request", HttpStatus.BAD_REQUEST, "Request body is not readable", false),
    NOT_FOUND("not-found", HttpStatus.NOT_FOUND, "Not found", false),
    METHOD_NOT_ALLOWED("method-not-allowed", HttpStatus.METHOD_NOT_ALLOWED, "Method not allowed", false),
    NOT_ACCEPTABLE("not-acceptable", HttpStatus.NOT_ACCEPTABLE, "Not acceptable", false),
    PAYLOAD_TOO_LARGE("payload-too-large", HttpStatus.CONTENT_TOO_LARGE, "Request body too large", false),
    UNSUPPORTED_MEDIA_TYPE("unsupported-media-type", HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Unsupported media type",
            false),
    IDEMPOTENCY_KEY_REUSED("idempotency-key-reused", HttpStatus.UNPROCESSABLE_CONTENT,
            "Idempotency key reused with a different request", false),
    SERVICE_UNAVAILABLE("service-unavailable", HttpStatus.SERVICE_UNAVAILABLE, "Service temporarily unavailable",
            true),
    INTERNAL_ERROR("internal-error", HttpStatus.INTERNAL_SERVER_ERROR, "Internal error", true);

    /** Base of every problem {@code type}; the part after it names the kind of error. */
    public static final String BASE_URI = "https://example.com/problems/";

    private final URI type;
    private final HttpStatus status;
    private final String title;
    private final boolean retryable;

    ProblemType(String slug, HttpStatus status, String title, boolean retryable) {
        this.type = URI.create(BASE_URI + slug);
        this.status = status;
        this.title = title;
        this.retryable = retryable;
    }

    public URI type() {
        return type;
    }

    public HttpStatus status() {
        return status;
    }

    public String title() {
        return title;
    }

    public boolean retryable() {
        return retryable;
    }
}
