package com.example.e2e.topology;

/**
 * The accumulated output of a node across restarts. A scenario takes a {@link #mark()} when it starts
 * and reads only what was written after it, so evidence is not borrowed from an earlier scenario.
 */
public interface NodeLog {

    /** A position in the log; everything written later is after it. */
    long mark();

    /** The text written since the mark. */
    String since(long mark);

    /** Where to look when something failed (a path, or a command that shows the log). */
    String location();
}
