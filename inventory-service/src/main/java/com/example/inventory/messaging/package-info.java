/**
 * The order.events binding of inventory-service: its inbox handlers and its reply exchange.
 */
package com.example.inventory.messaging;
