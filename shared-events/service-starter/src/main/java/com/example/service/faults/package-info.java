/**
 * Crash points: named places where a service halts on purpose so that tests can reproduce each failure window.
 */
package com.example.service.faults;
