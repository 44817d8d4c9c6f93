/**
 * payment-service: one payment per order, charged at the external provider exactly once and refunded when its
 * order is cancelled.
 */
package com.example.payment;
