package com.example.service.web;

import java.util.List;

/**
 * An error a handler reports to the client on purpose. The shared handler renders it as
 * {@code application/problem+json}.
 */
public class ApiProblem extends RuntimeException {

    /** One invalid input: its JSON name (e.g. {@code sku_ids[0]}) and what is wrong with it. */
    public record FieldError(String field, String message) {
    }

    private final ProblemType problemType;
    private final List<FieldError> errors;

    public ApiProblem(ProblemType problemType, String detail) {
        this(problemType, detail, List.of());
    }

    public ApiProblem(ProblemType problemType, String detail, List<FieldError> errors) {
        super(detail);
        this.problemType = problemType;
        this.errors = List.copyOf(errors);
    }

    public static ApiProblem notFound(String detail) {
        return new ApiProblem(StandardProblem.NOT_FOUND, detail);
    }

    public static ApiProblem invalid(String field, String message) {
        return new ApiProblem(StandardProblem.VALIDATION_FAILED, field + ": " + message,
                List.of(new FieldError(field, message)));
    }

    public ProblemType problemType() {
        return problemType;
    }

    public List<FieldError> errors() {
        return errors;
    }
}
