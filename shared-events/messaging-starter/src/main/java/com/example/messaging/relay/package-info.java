/**
 * The outbox relay: publishes committed outbox rows to RabbitMQ with publisher confirms, at least once and in order per aggregate.
 */
package com.example.messaging.relay;
