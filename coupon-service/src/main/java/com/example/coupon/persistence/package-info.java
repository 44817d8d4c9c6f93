/**
 * SQL for coupons and redemptions; every method joins the caller's transaction when there is one.
 */
package com.example.coupon.persistence;
