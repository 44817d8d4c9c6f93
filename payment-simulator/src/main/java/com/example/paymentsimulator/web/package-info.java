/**
 * HTTP endpoints of the simulator: the provider's API ({@code /charges*}) and its test-control endpoints
 * ({@code /faults}, {@code /ledger}), with the faults applied to the former.
 */
package com.example.paymentsimulator.web;
