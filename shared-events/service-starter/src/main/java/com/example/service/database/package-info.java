/**
 * The service's database beyond what Spring Boot configures: it is created when missing, before Flyway migrates it,
 * and a pooled connection is checked with a round trip only when it may have died unnoticed.
 */
package com.example.service.database;
