/**
 * Integration-test support shared by every service: real PostgreSQL and RabbitMQ, a fresh database and vhost per test class.
 */
package com.example.testsupport;
