/**
 * The inbox's dead-letter queues made visible and re-drivable: their depths (operator endpoint, gauges, health) and moving their messages back.
 */
package com.example.messaging.deadletter;
