/**
 * The run's report: per scenario the intents, orders, faults, duplicates, replays and every invariant's verdict, as Markdown and JSON.
 */
package com.example.e2e.report;
