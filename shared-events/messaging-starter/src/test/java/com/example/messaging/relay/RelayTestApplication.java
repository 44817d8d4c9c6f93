package com.example.messaging.relay;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/**
 * The smallest service there is: a database, a broker and the shared auto-configuration, relay included. It
 * scans no package: the starter's operator controllers live beside these tests and come from the
 * auto-configuration only, as in a service.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class RelayTestApplication {

    public static void main(String[] args) {
        SpringApplication.run(RelayTestApplication.class, args);
    }
}
