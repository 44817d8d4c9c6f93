/**
 * The inbox: applies each consumed event at most once, in one transaction with its processed_events row and its replies.
 */
package com.example.messaging.inbox;
