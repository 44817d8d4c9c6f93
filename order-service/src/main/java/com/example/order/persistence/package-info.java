/**
 * Order storage over R2DBC: orders, their lines, and the lookups by id and by intent.
 */
package com.example.order.persistence;
