/**
 * The benchmarks ({@code ./stack bench}): the system next to the ceilings of its own database and broker,
 * measured side by side on throw-away infrastructure, written as Markdown, JSON and PNG charts.
 */
package com.example.e2e.bench;
