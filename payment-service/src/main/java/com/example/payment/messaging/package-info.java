/**
 * What payment-service does with the events of order.events: its inbox handlers.
 */
package com.example.payment.messaging;
