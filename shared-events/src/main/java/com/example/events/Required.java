package com.example.events;

import java.util.List;

/** Checks used by the event records' constructors, so that a missing field fails with its JSON name. */
final class Required {

    private Required() {
    }

    static <T> T field(T value, String jsonName) {
        if (value == null) {
            throw new IllegalArgumentException("missing required field '" + jsonName + "'");
        }
        return value;
    }

    static <T> List<T> list(List<T> value, String jsonName) {
        return List.copyOf(field(value, jsonName));
    }
}
