package com.example.service.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.example.service.faults.CrashPoint;
import com.example.service.faults.CrashPoints;

/** Each condition of the service starter's auto-configuration, on and off, the way Spring Boot tests its own. */
class ServiceAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ServiceAutoConfiguration.class));

    @Test
    void crashPointsAreOffWithoutFaultsCrashAt() {
        runner.withUserConfiguration(DeclaresAPoint.class).run(context -> {
            assertThat(context).hasSingleBean(CrashPoints.class);
            assertThat(context.getBean(CrashPoints.class).isArmed()).isFalse();
        });
    }

    @Test
    void armsAPointThatAModuleDeclares() {
        runner.withUserConfiguration(DeclaresAPoint.class).withPropertyValues("faults.crash-at=test.somewhere@2")
                .run(context -> assertThat(context.getBean(CrashPoints.class).armed())
                        .isEqualTo(Map.of("test.somewhere", 2)));
    }

    @Test
    void refusesToStartWithAPointNoModuleDeclares() {
        runner.withUserConfiguration(DeclaresAPoint.class).withPropertyValues("faults.crash-at=relay.before-publish")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("unknown crash point 'relay.before-publish'")
                        .hasMessageContaining("test.somewhere"));
    }

    @Test
    void aCrashPointsBeanOfTheApplicationWins() {
        runner.withUserConfiguration(OwnCrashPoints.class).withPropertyValues("faults.crash-at=nowhere.known")
                .run(context -> assertThat(context.getBean(CrashPoints.class)).isSameAs(OwnCrashPoints.POINTS));
    }

    @Test
    void sharesTheEventJsonSettingsWithTheWebLayer() {
        runner.run(context -> assertThat(context).hasSingleBean(JsonMapperBuilderCustomizer.class));
        runner.withClassLoader(new FilteredClassLoader(JsonMapperBuilderCustomizer.class))
                .run(context -> assertThat(context).doesNotHaveBean(JsonMapperBuilderCustomizer.class));
    }

    @Test
    void createsTheDatabaseBeforeMigratingUnlessTurnedOff() {
        runner.run(context -> assertThat(context).hasSingleBean(FlywayMigrationStrategy.class));
        runner.withPropertyValues("service.database.create-if-missing=false")
                .run(context -> assertThat(context).doesNotHaveBean(FlywayMigrationStrategy.class));
        runner.withClassLoader(new FilteredClassLoader(FlywayMigrationStrategy.class))
                .run(context -> assertThat(context).doesNotHaveBean(FlywayMigrationStrategy.class));
    }

    @Test
    void aMigrationStrategyOfTheApplicationWins() {
        runner.withUserConfiguration(OwnMigration.class).run(context -> assertThat(context
                .getBean(FlywayMigrationStrategy.class)).isSameAs(OwnMigration.STRATEGY));
    }

    @Test
    void refusesAnImpossibleDatabasePort() {
        runner.withPropertyValues("service.database.port=70000")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("service.database.port must be between 1 and 65535"));
    }

    @Configuration(proxyBeanMethods = false)
    static class DeclaresAPoint {

        @Bean
        CrashPoint somewhere() {
            return new CrashPoint("test.somewhere", "a test");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnCrashPoints {

        static final CrashPoints POINTS = CrashPoints.none();

        @Bean
        CrashPoints crashPoints() {
            return POINTS;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnMigration {

        static final FlywayMigrationStrategy STRATEGY = flyway -> { };

        @Bean
        FlywayMigrationStrategy strategy() {
            return STRATEGY;
        }
    }
}
