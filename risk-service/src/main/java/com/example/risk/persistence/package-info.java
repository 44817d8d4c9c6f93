/**
 * SQL for risk assessments; every method joins the caller's transaction when there is one.
 */
package com.example.risk.persistence;
