/**
 * SQL for stock and reservations; every method joins the caller's transaction when there is one.
 */
package com.example.inventory.persistence;
