/**
 * What coupon-service does with the events of order.events: its inbox handlers.
 */
package com.example.coupon.messaging;
