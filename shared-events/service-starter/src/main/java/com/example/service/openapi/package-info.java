/**
 * The service's published OpenAPI description, served as committed.
 */
package com.example.service.openapi;
