package com.example.service.autoconfigure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Comparator;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.DefaultPropertiesPropertySource;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/**
 * Adds each starter's defaults ({@value #LOCATION}) to the environment with the lowest precedence, below the
 * service's own {@code application.yml}, its environment variables and every other source: a service inherits
 * the shared settings without importing anything and still overrides any of them.
 */
public class ServiceDefaults implements EnvironmentPostProcessor, Ordered {

    static final String LOCATION = "classpath*:META-INF/service-defaults/*.yml";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        YamlPropertySourceLoader loader = new YamlPropertySourceLoader();
        try {
            Resource[] files = new PathMatchingResourcePatternResolver(application.getClassLoader())
                    .getResources(LOCATION);
            Arrays.sort(files, Comparator.comparing(Resource::getDescription));
            for (Resource file : files) {
                String name = "starter defaults [" + file.getFilename() + "]";
                if (environment.getPropertySources().contains(name)) {
                    continue;
                }
                for (PropertySource<?> source : loader.load(name, file)) {
                    environment.getPropertySources().addLast(source);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the starters' defaults at " + LOCATION, e);
        }
        DefaultPropertiesPropertySource.moveToEnd(environment);
    }

    /** After the application's own configuration files are loaded, so they are already in place above. */
    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
