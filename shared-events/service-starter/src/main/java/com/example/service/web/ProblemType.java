package com.example.service.web;

import java.net.URI;

import org.springframework.http.HttpStatus;

/**
 * A kind of error a client can receive: a stable {@code type} URI, the status, a title and whether retrying
 * the same request can succeed. The kinds every service shares are in {@link StandardProblem}; a service
 * declares its own constants beside its controllers and reports them with {@link ApiProblem}.
 *
 * @param slug      the last segment of the {@code type} URI, e.g. {@code not-found}
 * @param status    the HTTP status
 * @param title     a short summary that does not change from occurrence to occurrence
 * @param retryable whether the same request can succeed later
 */
public record ProblemType(String slug, HttpStatus status, String title, boolean retryable) {

    /** Base of every problem {@code type}; the part after it names the kind of error. */
    public static final String BASE_URI = "https://example.com/problems/";

    public URI type() {
        return URI.create(BASE_URI + slug);
    }
}
