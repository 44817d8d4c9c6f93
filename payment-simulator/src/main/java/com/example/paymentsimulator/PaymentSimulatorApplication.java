package com.example.paymentsimulator;

import java.util.Random;
import java.util.random.RandomGenerator;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.security.oauth2.server.resource.autoconfigure.reactive.ReactiveOAuth2ResourceServerAutoConfiguration;
import org.springframework.context.annotation.Bean;

import com.example.service.security.ServiceSecurityAutoConfiguration;

/**
 * Like a real provider, the simulator is not one of our services: it takes its own API key (see
 * {@code security.ApiKeySecurity}), never our JWTs, so the starter's token security and Spring Boot's resource server
 * stay out. Excluded here rather than in application.yml, where a {@code SPRING_AUTOCONFIGURE_EXCLUDE} set for another
 * reason would replace the list.
 */
@SpringBootApplication(exclude = { ServiceSecurityAutoConfiguration.class,
        ReactiveOAuth2ResourceServerAutoConfiguration.class })
@EnableConfigurationProperties(SimulatorProperties.class)
public class PaymentSimulatorApplication {

    public static void main(String[] args) {
        SpringApplication.run(PaymentSimulatorApplication.class, args);
    }

    /** The dice of the fault knobs and of declines. {@link Random} is thread-safe; nothing here needs more. */
    @Bean
    RandomGenerator faultDice() {
        return new Random();
    }
}
