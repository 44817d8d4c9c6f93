/**
 * The system under test as nodes a scenario can start, kill, pause and restart: services, broker and database, behind a driver-neutral interface.
 */
package com.example.e2e.topology;
