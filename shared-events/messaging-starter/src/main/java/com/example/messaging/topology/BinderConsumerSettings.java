package com.example.messaging.topology;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.cloud.stream.binder.rabbit.properties.RabbitConsumerProperties;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.ClassPathResource;

/**
 * The RabbitMQ binder's consumer settings of the inbox binding, read from the messaging starter's defaults and the
 * environment the way a service resolves them ({@code INBOX_DELIVERY_LIMIT} included). The provisioner declares
 * queues with these values instead of a copy of them: a queue's arguments must equal what the service's binder
 * declares later, or that declaration fails with PRECONDITION_FAILED. No application context is started.
 */
final class BinderConsumerSettings {

    static final String DEFAULTS = "META-INF/service-defaults/messaging.yml";
    private static final String SHARED = "spring.cloud.stream.rabbit.default.consumer";
    /** The inbox's binding (see InboxBinding); a setting here wins over the shared one, as in the binder. */
    private static final String INBOX = "spring.cloud.stream.rabbit.bindings.inbox-in-0.consumer";

    private BinderConsumerSettings() {
    }

    /**
     * @param environment environment variables, e.g. {@code System.getenv()}
     * @param group       the consumer group, which is the service's name ({@code spring.application.name}, which
     *                    settings such as the dead-letter exchange are named after)
     */
    static RabbitConsumerProperties load(Map<String, ?> environment, String group) {
        MutablePropertySources sources = new MutablePropertySources();
        @SuppressWarnings("unchecked")
        Map<String, Object> variables = (Map<String, Object>) environment;
        sources.addLast(new MapPropertySource("service", Map.of("spring.application.name", group)));
        sources.addLast(new SystemEnvironmentPropertySource("environment", variables));
        try {
            for (PropertySource<?> source : new YamlPropertySourceLoader().load(DEFAULTS,
                    new ClassPathResource(DEFAULTS, BinderConsumerSettings.class.getClassLoader()))) {
                sources.addLast(source);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the messaging starter's defaults " + DEFAULTS, e);
        }
        Binder binder = new Binder(ConfigurationPropertySources.from(sources),
                new PropertySourcesPlaceholdersResolver(sources));
        RabbitConsumerProperties properties = binder.bindOrCreate(SHARED, RabbitConsumerProperties.class);
        binder.bind(INBOX, Bindable.ofInstance(properties));
        return properties;
    }
}
