package com.example.service.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;

class ApiDescriptionAutoConfigurationTests {

    private final ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ApiDescriptionAutoConfiguration.class));

    @Test
    void servesThePublishedDescriptionOfItsJarAsItIs() {
        runner.withPropertyValues("spring.application.name=things").run(context -> {
            @SuppressWarnings("unchecked")
            RouterFunction<ServerResponse> route = context.getBean(RouterFunction.class);
            WebTestClient.bindToRouterFunction(route).build().get().uri("/v3/api-docs").exchange()
                    .expectStatus().isOk()
                    .expectHeader().contentType(MediaType.APPLICATION_JSON)
                    .expectBody(String.class)
                    .isEqualTo("{\"openapi\":\"3.0.1\",\"info\":{\"title\":\"Things API\",\"version\":\"1\"},"
                            + "\"paths\":{}}\n");
        });
    }

    @Test
    void aServiceWithoutAPublishedDescriptionServesNone() {
        runner.withPropertyValues("spring.application.name=others")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(RouterFunction.class));
    }
}
