package com.example.service.faults;

import java.util.regex.Pattern;

/**
 * One named place where a process may halt on purpose (docs/contract.md, "Crash points"). The module that owns
 * the place declares it as a constant and registers it as a bean, so {@code faults.crash-at} can name only points
 * that exist in this process.
 *
 * @param name  e.g. {@code relay.before-publish}: the owner, a dot, where in its work
 * @param where one sentence for the start-up warning and the docs
 */
public record CrashPoint(String name, String where) {

    private static final Pattern NAME = Pattern.compile("[a-z]+\\.[a-z-]+");

    public CrashPoint {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("a crash point is named owner.where-in-its-work, not '" + name + "'");
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
