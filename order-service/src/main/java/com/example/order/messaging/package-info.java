/**
 * The replies of inventory, coupon and risk, handled through the shared inbox by the order's state machine.
 */
package com.example.order.messaging;
