/**
 * Who may call the simulator: its own secret API key on the provider's API ({@code /charges*}), as a real
 * provider's; the test-control endpoints and the probes are open.
 */
package com.example.paymentsimulator.security;
