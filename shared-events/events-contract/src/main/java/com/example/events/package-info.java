/**
 * The event contracts every service shares: immutable records grouped under one sealed interface per producer.
 */
package com.example.events;
