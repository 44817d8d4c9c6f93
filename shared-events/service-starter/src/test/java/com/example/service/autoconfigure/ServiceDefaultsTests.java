package com.example.service.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/** The starters' defaults sit below everything the service and its environment say. */
class ServiceDefaultsTests {

    @Test
    void addsTheDefaultsBelowTheApplicationsOwnSettingsOnce() {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("application.yml",
                Map.of("service.database.name", "orders", "spring.main.banner-mode", "console")));
        ServiceDefaults defaults = new ServiceDefaults();

        defaults.postProcessEnvironment(environment, new SpringApplication());
        defaults.postProcessEnvironment(environment, new SpringApplication());

        assertThat(environment.getProperty("spring.main.banner-mode")).as("the service's own wins").isEqualTo("console");
        assertThat(environment.getProperty("spring.r2dbc.url"))
                .isEqualTo("r2dbc:postgresql://localhost:5432/orders");
        assertThat(environment.getPropertySources().stream().map(source -> source.getName())
                .filter(name -> name.startsWith("starter defaults"))).containsExactly("starter defaults [service.yml]");
        assertThat(environment.getPropertySources().stream().reduce((first, second) -> second).orElseThrow().getName())
                .isEqualTo("starter defaults [service.yml]");
    }
}
