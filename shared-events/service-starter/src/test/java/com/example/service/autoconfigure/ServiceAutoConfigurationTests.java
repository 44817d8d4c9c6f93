package com.example.service.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.boot.r2dbc.ConnectionFactoryDecorator;
import org.springframework.boot.r2dbc.autoconfigure.ConnectionFactoryOptionsBuilderCustomizer;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import com.example.service.database.RestedConnectionValidation;
import com.example.service.faults.CrashPoint;
import com.example.service.faults.CrashPoints;

import io.r2dbc.postgresql.PostgresqlConnectionFactoryProvider;
import io.r2dbc.spi.ConnectionFactoryOptions;

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

    @Test
    void everyR2dbcSessionGetsTheStatementAndLockTimeouts() {
        runner.run(context -> assertThat(sessionOptions(context.getBean(ConnectionFactoryOptionsBuilderCustomizer.class)))
                .satisfies(options -> {
                    assertThat(options.getValue(ConnectionFactoryOptions.STATEMENT_TIMEOUT)).isEqualTo(Duration.ofSeconds(10));
                    assertThat(options.getValue(ConnectionFactoryOptions.LOCK_WAIT_TIMEOUT)).isEqualTo(Duration.ofSeconds(5));
                }));
        runner.withPropertyValues("service.database.statement-timeout=2s", "service.database.lock-timeout=750ms")
                .run(context -> assertThat(sessionOptions(context.getBean(ConnectionFactoryOptionsBuilderCustomizer.class)))
                        .satisfies(options -> {
                            assertThat(options.getValue(ConnectionFactoryOptions.STATEMENT_TIMEOUT))
                                    .isEqualTo(Duration.ofSeconds(2));
                            assertThat(options.getValue(ConnectionFactoryOptions.LOCK_WAIT_TIMEOUT))
                                    .isEqualTo(Duration.ofMillis(750));
                        }));
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyR2dbcSessionPlansEachStatementOnceUnlessToldOtherwise() {
        runner.run(context -> assertThat((Map<String, String>) sessionOptions(
                context.getBean(ConnectionFactoryOptionsBuilderCustomizer.class))
                .getValue(PostgresqlConnectionFactoryProvider.OPTIONS))
                .containsEntry("plan_cache_mode", "force_generic_plan")
                .containsEntry("idle_in_transaction_session_timeout", "60000"));
        runner.withPropertyValues("service.database.plan-cache-mode=auto")
                .run(context -> assertThat((Map<String, String>) sessionOptions(
                        context.getBean(ConnectionFactoryOptionsBuilderCustomizer.class))
                        .getValue(PostgresqlConnectionFactoryProvider.OPTIONS))
                        .containsEntry("plan_cache_mode", "auto"));
        runner.withPropertyValues("service.database.plan-cache-mode=generic")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("service.database.plan-cache-mode must be one of [auto, "
                                + "force_generic_plan, force_custom_plan], was generic"));
    }

    @Test
    void everyR2dbcSessionAsksForBinaryResultsUnlessToldOtherwise() {
        runner.run(context -> assertThat(sessionOptions(context.getBean(ConnectionFactoryOptionsBuilderCustomizer.class))
                .getValue(PostgresqlConnectionFactoryProvider.FORCE_BINARY)).isEqualTo(true));
        runner.withPropertyValues("service.database.binary-results=false")
                .run(context -> assertThat(sessionOptions(context.getBean(
                        ConnectionFactoryOptionsBuilderCustomizer.class))
                        .getValue(PostgresqlConnectionFactoryProvider.FORCE_BINARY)).isEqualTo(false));
    }

    @Test
    void refusesTimeoutsThatWouldSwitchOffOrNeverFire() {
        runner.withPropertyValues("service.database.statement-timeout=0")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("service.database.statement-timeout must be at least 1ms"));
        runner.withPropertyValues("service.database.lock-timeout=0s")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("service.database.lock-timeout must be at least 1ms"));
        runner.withPropertyValues("service.database.statement-timeout=3s", "service.database.lock-timeout=5s")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("service.database.lock-timeout (PT5S) must not exceed "
                                + "service.database.statement-timeout (PT3S)"));
    }

    @Test
    void poolsConnectionsThatAreCheckedOnlyWhenTheyMayHaveDiedUnnoticed() {
        runner.run(context -> assertThat(context).getBean(ConnectionFactoryDecorator.class)
                .isInstanceOf(RestedConnectionValidation.class));
        runner.withPropertyValues("service.database.revalidate-after=-1ms")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("service.database.revalidate-after must not be negative"));
        runner.withPropertyValues("service.database.validation-timeout=0")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("service.database.validation-timeout must be at least 1ms"));
    }

    private static ConnectionFactoryOptions sessionOptions(ConnectionFactoryOptionsBuilderCustomizer customizer) {
        ConnectionFactoryOptions.Builder options = ConnectionFactoryOptions.builder();
        customizer.customize(options);
        return options.build();
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
