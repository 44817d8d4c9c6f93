package com.example.events;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The W3C Trace Context {@code traceparent} header (https://www.w3.org/TR/trace-context/): {@code version-trace_id-
 * parent_id-flags}, lowercase hex. It comes from outside (a client's request, a message) and is stored in the outbox
 * and forwarded on every event the request causes, so only a well-formed one is kept. As the recommendation says, an
 * invalid header is ignored (the request goes on without a trace context), not refused.
 */
public final class Traceparent {

    /** Longer than any version this code knows needs; a future version may append fields, not unbounded text. */
    public static final int MAX_LENGTH = 256;

    private static final Pattern FORMAT = Pattern
            .compile("([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-[^\\s]*)?");
    private static final String ZERO_TRACE_ID = "0".repeat(32);
    private static final String ZERO_PARENT_ID = "0".repeat(16);

    private Traceparent() {
    }

    /** The header when it is a valid traceparent, else null (also for null). */
    public static String validOrNull(String header) {
        return isValid(header) ? header : null;
    }

    /**
     * Version 00 is exactly its four fields; a later version may carry more after them; version ff is forbidden;
     * the trace id and the parent id must not be all zeros.
     */
    public static boolean isValid(String header) {
        if (header == null || header.length() > MAX_LENGTH) {
            return false;
        }
        Matcher parts = FORMAT.matcher(header);
        if (!parts.matches()) {
            return false;
        }
        String version = parts.group(1);
        if (version.equals("ff") || version.equals("00") && parts.group(5) != null) {
            return false;
        }
        return !parts.group(2).equals(ZERO_TRACE_ID) && !parts.group(3).equals(ZERO_PARENT_ID);
    }
}
