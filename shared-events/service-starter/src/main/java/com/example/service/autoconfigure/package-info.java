/**
 * Spring Boot auto-configuration of the service starter: shared defaults, JSON mapping, crash points and the database bootstrap.
 */
package com.example.service.autoconfigure;
