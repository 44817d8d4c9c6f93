/**
 * coupon-service: the feature root (aggregate, state machine, application service).
 */
package com.example.coupon;
