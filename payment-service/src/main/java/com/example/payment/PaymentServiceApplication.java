package com.example.payment;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

import com.example.service.faults.CrashPoint;

@SpringBootApplication
@EnableConfigurationProperties(PaymentProperties.class)
public class PaymentServiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(PaymentServiceApplication.class, args);
    }

    /** payment-service owns two crash points of its own besides the relay's and the inbox's. */
    @Bean
    CrashPoint paymentBeforeChargeCrashPoint() {
        return PaymentCrashPoints.BEFORE_CHARGE;
    }

    @Bean
    CrashPoint paymentAfterChargeBeforeRecordCrashPoint() {
        return PaymentCrashPoints.AFTER_CHARGE_BEFORE_RECORD;
    }
}
