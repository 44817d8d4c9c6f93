/**
 * HTTP endpoints of risk-service: read an order's assessment.
 */
package com.example.risk.web;
