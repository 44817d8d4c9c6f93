/**
 * The clients: intents planned per scenario, placed concurrently with bounded retries of the same key, and the history of every attempt.
 */
package com.example.e2e.workload;
