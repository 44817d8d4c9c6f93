/**
 * Spring Boot auto-configuration that gives every service the shared JSON mapping, crash points and database bootstrap.
 */
package com.example.events.autoconfigure;
