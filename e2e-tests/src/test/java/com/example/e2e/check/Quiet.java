package com.example.e2e.check;

import java.time.Duration;

/**
 * Whether the system went quiet before the checker read it, and if not, what was still moving.
 *
 * @param pending what the last look found unfinished, empty when quiet
 */
public record Quiet(boolean reached, Duration waited, String pending) {
}
