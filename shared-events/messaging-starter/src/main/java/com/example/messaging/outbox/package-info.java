/**
 * The transactional outbox: events are written in the transaction of the change that caused them, and a relay publishes them.
 */
package com.example.messaging.outbox;
