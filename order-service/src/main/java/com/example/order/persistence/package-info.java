/**
 * Order storage over R2DBC: orders, their lines and history, the lookups by id and by intent, and the deadline's
 * claim of expired orders.
 */
package com.example.order.persistence;
