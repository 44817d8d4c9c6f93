/**
 * risk-service: one deterministic risk assessment per order, by rules from configuration.
 */
package com.example.risk;
