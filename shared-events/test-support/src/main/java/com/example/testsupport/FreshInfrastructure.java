package com.example.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ContextCustomizerFactories;

/**
 * Gives the annotated Spring Boot test class its own new database and RabbitMQ vhost, so that no
 * test class sees another's rows or messages. The application context is closed after the class.
 * The database name and JDBC URL are available as {@code test.database.name} and {@code test.database.jdbc-url}.
 * The service accepts the bearer tokens of {@link TestTokens}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ContextCustomizerFactories(FreshInfrastructureCustomizerFactory.class)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
public @interface FreshInfrastructure {

    /**
     * False when the test brings its own database server (e.g. a {@link ThrowawayPostgres} it stops
     * and starts) and sets the {@code spring.r2dbc.*} and {@code spring.flyway.*} properties itself.
     */
    boolean database() default true;
}
