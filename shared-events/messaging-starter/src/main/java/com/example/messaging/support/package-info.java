/**
 * Mechanics the outbox and the inbox share: backoff, janitors, the checks of their settings.
 */
package com.example.messaging.support;
