/**
 * The orders HTTP API: request and response records, and the controller.
 */
package com.example.order.web;
