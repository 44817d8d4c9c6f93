/**
 * The checker: waits until the system is quiet, reads its final state (read-only SQL and the broker's management API) and judges it against the history and the faults.
 */
package com.example.e2e.check;
