package com.example.messaging.relay;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The smallest service there is: a database, a broker and the shared auto-configuration, relay included. */
@SpringBootApplication
public class RelayTestApplication {

    public static void main(String[] args) {
        SpringApplication.run(RelayTestApplication.class, args);
    }
}
