/**
 * The service's OpenAPI description, made to match what goes over the wire.
 */
package com.example.service.openapi;
