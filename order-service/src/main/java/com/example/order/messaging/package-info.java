/**
 * The replies of inventory, coupon and risk, bound through the shared inbox to the order's state machine.
 */
package com.example.order.messaging;
