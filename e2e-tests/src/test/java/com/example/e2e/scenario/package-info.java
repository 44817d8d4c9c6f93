/**
 * The scenarios: each places a workload on the running system, injects its faults, heals, waits for quiet and has the checker judge the result.
 */
package com.example.e2e.scenario;
