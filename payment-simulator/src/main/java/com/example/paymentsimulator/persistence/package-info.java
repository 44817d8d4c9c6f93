/**
 * SQL for the simulator's ledger of charges and refunds.
 */
package com.example.paymentsimulator.persistence;
