/**
 * inventory-service: stock per sku and all-or-nothing reservations per order.
 */
package com.example.inventory;
