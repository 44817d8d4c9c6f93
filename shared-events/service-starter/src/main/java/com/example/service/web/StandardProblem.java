package com.example.service.web;

import java.util.List;

import org.springframework.http.HttpStatus;

/** The kinds of error every service can answer with (see docs/contract.md, "Errors"). */
public final class StandardProblem {

    public static final ProblemType VALIDATION_FAILED = new ProblemType("validation-failed", HttpStatus.BAD_REQUEST,
            "Request is not valid", false);
    public static final ProblemType MALFORMED_REQUEST = new ProblemType("malformed-request", HttpStatus.BAD_REQUEST,
            "Request body is not readable", false);
    public static final ProblemType UNAUTHORIZED = new ProblemType("unauthorized", HttpStatus.UNAUTHORIZED,
            "Authentication required", false);
    public static final ProblemType FORBIDDEN = new ProblemType("forbidden", HttpStatus.FORBIDDEN, "Not allowed",
            false);
    public static final ProblemType NOT_FOUND = new ProblemType("not-found", HttpStatus.NOT_FOUND, "Not found", false);
    public static final ProblemType METHOD_NOT_ALLOWED = new ProblemType("method-not-allowed",
            HttpStatus.METHOD_NOT_ALLOWED, "Method not allowed", false);
    public static final ProblemType NOT_ACCEPTABLE = new ProblemType("not-acceptable", HttpStatus.NOT_ACCEPTABLE,
            "Not acceptable", false);
    public static final ProblemType PAYLOAD_TOO_LARGE = new ProblemType("payload-too-large",
            HttpStatus.CONTENT_TOO_LARGE, "Request body too large", false);
    public static final ProblemType UNSUPPORTED_MEDIA_TYPE = new ProblemType("unsupported-media-type",
            HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Unsupported media type", false);
    public static final ProblemType SERVICE_UNAVAILABLE = new ProblemType("service-unavailable",
            HttpStatus.SERVICE_UNAVAILABLE, "Service temporarily unavailable", true);
    public static final ProblemType INTERNAL_ERROR = new ProblemType("internal-error",
            HttpStatus.INTERNAL_SERVER_ERROR, "Internal error", true);

    /** In order of preference where a bare status has to be turned into a kind. */
    static final List<ProblemType> ALL = List.of(VALIDATION_FAILED, MALFORMED_REQUEST, UNAUTHORIZED, FORBIDDEN, NOT_FOUND, METHOD_NOT_ALLOWED,
            NOT_ACCEPTABLE, PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE, SERVICE_UNAVAILABLE, INTERNAL_ERROR);

    private StandardProblem() {
    }
}
