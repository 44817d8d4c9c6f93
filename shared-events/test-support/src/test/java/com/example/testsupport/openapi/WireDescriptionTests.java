package com.example.testsupport.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;

import com.example.service.autoconfigure.ServiceAutoConfiguration;

import io.swagger.v3.core.jackson.ModelResolver;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.Paths;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.RequestBody;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;

class WireDescriptionTests {

    @Test
    void everyErrorIsAProblemAndEveryOperationSaysWhatItCanAnswer() {
        OpenAPI api = new OpenAPI().paths(new Paths().addPathItem("/things", new PathItem().post(new Operation()
                .requestBody(new RequestBody().content(json(new Schema<>().$ref("#/components/schemas/Thing"))))
                .responses(new ApiResponses()
                        .addApiResponse("201", new ApiResponse().description("made")
                                .content(json(new Schema<>().$ref("#/components/schemas/Thing"))))
                        .addApiResponse("422", new ApiResponse().description("no")
                                .content(json(new Schema<>().$ref("#/components/schemas/Thing"))))))))
                .components(new Components().addSchemas("Thing", new ObjectSchema()
                        .addProperty("name", new StringSchema())
                        .addProperty("note", new StringSchema().nullable(true))));

        new WireDescription(new Info().title("Things API").version("1")).customise(api);

        Operation post = api.getPaths().get("/things").getPost();
        assertThat(post.getResponses()).containsKeys("201", "400", "406", "413", "415", "422", "500", "503");
        assertThat(post.getResponses().get("422").getContent()).containsOnlyKeys("application/problem+json");
        assertThat(post.getResponses().get("422").getContent().get("application/problem+json").getSchema().get$ref())
                .isEqualTo("#/components/schemas/Problem");
        assertThat(post.getResponses().get("503").getHeaders()).containsKeys("Retry-After", "X-Request-Id");
        assertThat(post.getResponses().get("201").getHeaders()).containsKey("X-Request-Id");
        assertThat(post.getParameters()).extracting(p -> p.getName() + " in " + p.getIn())
                .containsExactly("X-Request-Id in header");
        assertThat(api.getComponents().getSchemas().get("Thing").getRequired()).containsExactly("name", "note");
        assertThat(api.getComponents().getSchemas().get("Problem").getRequired())
                .containsExactly("type", "title", "status", "detail", "instance", "retryable");
        assertThat(api.getInfo().getTitle()).isEqualTo("Things API");
    }

    @Test
    void aReactiveWebServiceDescribesItsWireAndOthersDoNot() {
        new ReactiveWebApplicationContextRunner()
                .withConfiguration(
                        AutoConfigurations.of(ServiceAutoConfiguration.class, GeneratedDescriptionAutoConfiguration.class))
                .withPropertyValues("service.database.create-if-missing=false", "spring.application.name=things")
                .run(context -> {
                    assertThat(context).hasSingleBean(ModelResolver.class).hasSingleBean(OpenApiCustomizer.class);
                    OpenAPI api = new OpenAPI();
                    context.getBean(OpenApiCustomizer.class).customise(api);
                    assertThat(api.getInfo().getTitle()).as("the application's name by default").isEqualTo("things");
                });
        new ApplicationContextRunner()
                .withConfiguration(
                        AutoConfigurations.of(ServiceAutoConfiguration.class, GeneratedDescriptionAutoConfiguration.class))
                .withPropertyValues("service.database.create-if-missing=false")
                .run(context -> assertThat(context).doesNotHaveBean(OpenApiCustomizer.class));
    }

    private static Content json(Schema<?> schema) {
        return new Content().addMediaType("application/json", new MediaType().schema(schema));
    }
}
