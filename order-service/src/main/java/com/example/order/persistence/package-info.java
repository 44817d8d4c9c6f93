/**
 * Order storage over R2DBC: orders, their lines and history, the lookups by id, by intent and by age, and the
 * deadline's claim of expired orders.
 */
package com.example.order.persistence;
