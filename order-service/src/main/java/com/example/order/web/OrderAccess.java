package com.example.order.web;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.example.service.security.AccessRules;
import com.example.service.security.Caller;

/**
 * Customers (scope {@code orders}) and operators may call {@code /orders}; which orders a customer sees and places
 * is the controller's business (their own: the token's {@code sub} is the {@code user_id}). Every other path of
 * order-service is for operators.
 */
@Configuration(proxyBeanMethods = false)
class OrderAccess {

    @Bean
    AccessRules ordersForCustomers() {
        return exchanges -> exchanges.pathMatchers("/orders", "/orders/**").hasAnyAuthority(Caller.CUSTOMER, Caller.ADMIN);
    }
}
