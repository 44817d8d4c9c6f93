/**
 * coupon-service: coupons, and their redemption by at most one order at a time.
 */
package com.example.coupon;
