/**
 * The order.events binding of risk-service: its inbox handler and its reply exchange.
 */
package com.example.risk.messaging;
