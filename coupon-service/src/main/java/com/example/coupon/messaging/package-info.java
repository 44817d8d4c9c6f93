/**
 * The order.events binding of coupon-service: its inbox handlers and its reply exchange.
 */
package com.example.coupon.messaging;
