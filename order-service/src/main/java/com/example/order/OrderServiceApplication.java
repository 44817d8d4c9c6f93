package com.example.order;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

import com.example.service.faults.CrashPoint;

@SpringBootApplication
@EnableConfigurationProperties(DeadlineProperties.class)
public class OrderServiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(OrderServiceApplication.class, args);
    }

    /** order-service owns one crash point of its own besides the relay's and the inbox's. */
    @Bean
    CrashPoint orderAfterCommitBeforeResponseCrashPoint() {
        return OrderService.AFTER_COMMIT_BEFORE_RESPONSE;
    }
}
