package com.example.service.database;

import java.io.PrintStream;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.springframework.boot.convert.DurationStyle;

/**
 * Creates the service databases and their roles ({@link DatabaseRoles}) before any service starts: what
 * {@code ./stack up} and compose's one-shot {@code db-init} run, with administrator credentials no service has. From
 * any service's executable jar, without starting the service:
 * <pre>
 * java -cp order-service/target/order-service.jar -Dloader.main=com.example.service.database.DatabaseProvisioner \
 *     org.springframework.boot.loader.launch.PropertiesLauncher orders inventory coupons risk
 * </pre>
 * Arguments: the databases. Environment: {@code DB_HOST} ({@code localhost}), {@code DB_PORT} (5432),
 * {@code DB_ADMIN_USER} ({@code postgres}), {@code DB_ADMIN_PASSWORD} (empty), {@code DB_STATEMENT_TIMEOUT} (10s, the
 * runtime roles' statement timeout), and per database {@code <DATABASE>_OWNER_PASSWORD} and
 * {@code <DATABASE>_APP_PASSWORD} (required; e.g. {@code ORDERS_APP_PASSWORD} for the role {@code orders_app}).
 * Idempotent; running it again with other passwords rotates them. Exits 0 when every database is provisioned, 1 with a
 * one-line reason otherwise; never prints a password.
 */
public final class DatabaseProvisioner {

    private DatabaseProvisioner() {
    }

    public static void main(String[] args) {
        System.exit(run(List.of(args), System.getenv(), System.out, System.err));
    }

    static int run(List<String> databases, Map<String, String> environment, PrintStream out, PrintStream err) {
        try {
            if (databases.isEmpty()) {
                throw new IllegalArgumentException("name the databases to provision, e.g. orders inventory coupons risk");
            }
            String server = "jdbc:postgresql://" + environment.getOrDefault("DB_HOST", "localhost") + ":"
                    + environment.getOrDefault("DB_PORT", "5432");
            Duration statementTimeout = duration(environment.getOrDefault("DB_STATEMENT_TIMEOUT", "10s"));
            List<DatabaseRoles.Access> accesses = new ArrayList<>();
            for (String database : databases) {
                accesses.add(DatabaseRoles.Access.of(database, required(environment, database, "OWNER"),
                        required(environment, database, "APP"), statementTimeout));
            }
            for (DatabaseRoles.Access access : accesses) {
                DatabaseRoles.provision(server, environment.getOrDefault("DB_ADMIN_USER", "postgres"),
                        environment.getOrDefault("DB_ADMIN_PASSWORD", ""), access);
                out.println("database " + access.database() + ": owner " + access.owner() + ", runtime role "
                        + access.runtime());
            }
            return 0;
        } catch (IllegalArgumentException | IllegalStateException e) {
            err.println("databases: " + e.getMessage());
            return 1;
        }
    }

    private static String required(Map<String, String> environment, String database, String role) {
        String name = database.toUpperCase(Locale.ROOT) + "_" + role + "_PASSWORD";
        String value = environment.get(name);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " is not set");
        }
        return value;
    }

    private static Duration duration(String value) {
        try {
            return DurationStyle.detectAndParse(value);
        } catch (IllegalArgumentException | DateTimeParseException e) {
            throw new IllegalArgumentException("DB_STATEMENT_TIMEOUT is not a duration: " + value);
        }
    }
}
