/**
 * Creates a service's database when it is missing, before Flyway migrates it.
 */
package com.example.service.database;
