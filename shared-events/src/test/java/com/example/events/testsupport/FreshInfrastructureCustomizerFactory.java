package com.example.events.testsupport;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;

/** Points the test's application context at a fresh database and vhost (see {@link FreshInfrastructure}). */
class FreshInfrastructureCustomizerFactory implements ContextCustomizerFactory {

    @Override
    public ContextCustomizer createContextCustomizer(Class<?> testClass,
            List<ContextConfigurationAttributes> configAttributes) {
        if (!MergedAnnotations.from(testClass, MergedAnnotations.SearchStrategy.TYPE_HIERARCHY)
                .isPresent(FreshInfrastructure.class)) {
            return null;
        }
        return new Customizer(testClass);
    }

    /** One per test class: equal only to itself, so every class gets its own context and infrastructure. */
    private static final class Customizer implements ContextCustomizer {

        private final Class<?> testClass;

        Customizer(Class<?> testClass) {
            this.testClass = testClass;
        }

        @Override
        public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
            TestInfrastructure infrastructure = TestInfrastructure.get();
            String service = context.getEnvironment().getProperty("spring.application.name", "service");
            String database = infrastructure.createDatabase("it_" + service);
            String vhost = infrastructure.createVhost("it-" + service);
            TestInfrastructure.Postgres pg = infrastructure.postgres();
            TestInfrastructure.Rabbit mq = infrastructure.rabbit();

            Map<String, Object> properties = new LinkedHashMap<>();
            properties.put("spring.r2dbc.url", pg.r2dbcUrl(database));
            properties.put("spring.r2dbc.username", pg.user());
            properties.put("spring.r2dbc.password", pg.password());
            properties.put("spring.flyway.url", pg.jdbcUrl(database));
            properties.put("spring.flyway.user", pg.user());
            properties.put("spring.flyway.password", pg.password());
            properties.put("spring.rabbitmq.host", mq.host());
            properties.put("spring.rabbitmq.port", mq.port());
            properties.put("spring.rabbitmq.username", mq.user());
            properties.put("spring.rabbitmq.password", mq.password());
            properties.put("spring.rabbitmq.virtual-host", vhost);
            properties.put("test.database.name", database);
            properties.put("test.database.jdbc-url", pg.jdbcUrl(database));
            properties.put("test.rabbitmq.virtual-host", vhost);
            context.getEnvironment().getPropertySources()
                    .addFirst(new MapPropertySource("fresh-infrastructure-" + testClass.getSimpleName(), properties));
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Customizer customizer && customizer.testClass == testClass;
        }

        @Override
        public int hashCode() {
            return Objects.hashCode(testClass);
        }
    }
}
