package com.example.testsupport;

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
        boolean database = MergedAnnotations.from(testClass, MergedAnnotations.SearchStrategy.TYPE_HIERARCHY)
                .get(FreshInfrastructure.class).getBoolean("database");
        return new Customizer(testClass, database);
    }

    /** One per test class: equal only to itself, so every class gets its own context and infrastructure. */
    private static final class Customizer implements ContextCustomizer {

        private final Class<?> testClass;
        private final boolean database;

        Customizer(Class<?> testClass, boolean database) {
            this.testClass = testClass;
            this.database = database;
        }

        @Override
        public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
            TestInfrastructure infrastructure = TestInfrastructure.get();
            String service = context.getEnvironment().getProperty("spring.application.name", "service");
            String vhost = infrastructure.createVhost("it-" + service);
            Map<String, Object> properties = new LinkedHashMap<>();
            if (database) {
                String name = infrastructure.createDatabase("it_" + service);
                properties.putAll(infrastructure.springProperties(name, vhost));
                properties.put("test.database.name", name);
                properties.put("test.database.jdbc-url", infrastructure.postgres().jdbcUrl(name));
                properties.put("test.database.user", infrastructure.postgres().user());
                properties.put("test.database.password", infrastructure.postgres().password());
            } else {
                infrastructure.springProperties("unused", vhost).forEach((key, value) -> {
                    if (key.startsWith("spring.rabbitmq.") || key.equals(TestInfrastructure.DECLARE_SOURCE_EXCHANGES)) {
                        properties.put(key, value);
                    }
                });
            }
            properties.put("test.rabbitmq.virtual-host", vhost);
            properties.put(TestTokens.PROPERTY, TestTokens.publicKeyLocation());
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
