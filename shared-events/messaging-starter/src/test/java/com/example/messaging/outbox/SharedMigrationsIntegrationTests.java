package com.example.messaging.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.junit.jupiter.api.Test;

import com.example.testsupport.TestInfrastructure;

/**
 * The numbering of the shared migrations: they are 1.x and a service's own start at 2, so a shared migration
 * released later (1.1) sorts below a database's newest migration. The service defaults turn on Flyway's
 * out-of-order for that; without it, such a database would refuse to start.
 */
class SharedMigrationsIntegrationTests {

    private static final String SHARED = "classpath:db/shared-migration";
    private static final String SERVICE = "classpath:db/test-service-migration";

    @Test
    void aSharedMigrationReleasedAfterTheServicesOwnIsAppliedToADatabaseAlreadyPastThem() {
        TestInfrastructure infrastructure = TestInfrastructure.get();
        TestInfrastructure.Postgres pg = infrastructure.postgres();
        String url = pg.jdbcUrl(infrastructure.createDatabase("it_shared_migrations"));
        // The database as an earlier release left it: the shared V1, then the service's V2.
        flyway(url, false, SHARED).target("1").load().migrate();
        flyway(url, false, SERVICE).ignoreMigrationPatterns("*:missing").load().migrate();

        assertThatThrownBy(() -> flyway(url, false, SHARED, SERVICE).load().validate())
                .isInstanceOf(FlywayException.class)
                .hasMessageContaining("1.1");

        flyway(url, true, SHARED, SERVICE).load().migrate();

        MigrationInfo[] applied = flyway(url, true, SHARED, SERVICE).load().info().applied();
        assertThat(applied).extracting(info -> info.getVersion().getVersion()).containsExactly("1", "2", "1.1");
        assertThat(flyway(url, true, SHARED, SERVICE).load().info().pending()).isEmpty();
    }

    private static org.flywaydb.core.api.configuration.FluentConfiguration flyway(String url, boolean outOfOrder,
            String... locations) {
        TestInfrastructure.Postgres pg = TestInfrastructure.get().postgres();
        return Flyway.configure().dataSource(url, pg.user(), pg.password()).locations(locations).outOfOrder(outOfOrder);
    }
}
