package com.example.events;

import java.util.List;

/** Checks used by the event records' constructors, so that a missing or impossible field fails with its JSON name. */
final class Required {

    private Required() {
    }

    static <T> T field(T value, String jsonName) {
        if (value == null) {
            throw new IllegalArgumentException("missing required field '" + jsonName + "'");
        }
        return value;
    }

    static Long positive(Long value, String jsonName) {
        if (field(value, jsonName) <= 0) {
            throw new IllegalArgumentException("'" + jsonName + "' must be > 0, was " + value);
        }
        return value;
    }

    /** An optional number (absent in events of earlier versions); when present, within {@code min..max}. */
    static <N extends Number> N optionalBetween(N value, long min, long max, String jsonName) {
        if (value != null && (value.longValue() < min || value.longValue() > max)) {
            throw new IllegalArgumentException("'" + jsonName + "' must be " + min + ".." + max + ", was " + value);
        }
        return value;
    }

    /** An immutable copy; a null element is refused (List.copyOf), as is a missing list. */
    static <T> List<T> list(List<T> value, String jsonName) {
        for (T element : field(value, jsonName)) {
            if (element == null) {
                throw new IllegalArgumentException("'" + jsonName + "' must not contain null");
            }
        }
        return List.copyOf(value);
    }
}
