/**
 * Topology before traffic: declares every exchange, subscriber queue, dead-letter queue and binding of the event
 * contract on a broker, as each consumer's binder would, before any service starts (docs/architecture.md, rule 9).
 */
package com.example.messaging.topology;
