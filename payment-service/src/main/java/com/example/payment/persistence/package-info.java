/**
 * SQL for payments; every method joins the caller's transaction when there is one.
 */
package com.example.payment.persistence;
