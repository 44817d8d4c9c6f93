package com.example.paymentsimulator.web;

import java.util.regex.Pattern;

import com.example.service.web.ApiProblem;

/**
 * Reads an idempotency key. The IETF draft sends it as a structured-field string ({@code "8e03978e-..."}, quoted),
 * most providers' clients send it bare: both name the same key.
 */
final class IdempotencyKeys {

    static final String HEADER = "Idempotency-Key";
    static final int MAX_LENGTH = 255;

    /** Visible ASCII without quotes or backslashes, which a structured-field string would have to escape. */
    private static final Pattern ACCEPTABLE = Pattern.compile("[\\x21\\x23-\\x5B\\x5D-\\x7E]{1," + MAX_LENGTH + "}");

    private IdempotencyKeys() {
    }

    /** The key without the quotes of its structured-field form; 400 when it is empty or has other characters. */
    static String parse(String field, String value) {
        String key = value.strip();
        if (key.length() >= 2 && key.startsWith("\"") && key.endsWith("\"")) {
            key = key.substring(1, key.length() - 1);
        }
        if (!ACCEPTABLE.matcher(key).matches()) {
            throw ApiProblem.invalid(field, "must be 1 to " + MAX_LENGTH
                    + " visible ASCII characters other than \" and \\, optionally in double quotes");
        }
        return key;
    }
}
