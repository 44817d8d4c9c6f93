/**
 * HTTP endpoints of inventory-service: stock per sku and reservations per order.
 */
package com.example.inventory.web;
