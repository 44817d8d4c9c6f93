/**
 * Reading failures: cause chains, "is the database unavailable?", one-line descriptions.
 */
package com.example.service.failure;
