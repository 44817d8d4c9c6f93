/**
 * The client of the external payment provider: idempotent charges, look-ups and refunds over HTTP, every answer
 * (including none) turned into an outcome the worker can act on.
 */
package com.example.payment.provider;
