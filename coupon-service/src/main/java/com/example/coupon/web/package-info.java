/**
 * HTTP endpoints of coupon-service: define and read coupons.
 */
package com.example.coupon.web;
