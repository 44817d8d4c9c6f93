/**
 * HTTP endpoints of payment-service: read an order's payment.
 */
package com.example.payment.web;
