/**
 * payment-simulator: a stand-in for an external payment provider, with idempotent charges and refunds, a durable
 * ledger and fault knobs for the tests.
 */
package com.example.paymentsimulator;
