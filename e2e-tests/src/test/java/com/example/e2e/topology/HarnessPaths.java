package com.example.e2e.topology;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the harness finds the service jars and writes its output. Maven passes both as system
 * properties ({@code e2e.jars}: the repository root; {@code e2e.output}: this module's target dir);
 * the defaults suit a run from the module directory.
 */
public record HarnessPaths(Path repositoryRoot, Path output) {

    public static HarnessPaths fromSystemProperties() {
        return new HarnessPaths(Path.of(System.getProperty("e2e.jars", "..")).toAbsolutePath().normalize(),
                Path.of(System.getProperty("e2e.output", "target")).toAbsolutePath().normalize());
    }

    /** Every process's log: {@code target/e2e-logs/}. */
    public Path logs() {
        return output.resolve("e2e-logs");
    }

    Path jar(Service service) {
        Path jar = repositoryRoot.resolve(service.moduleName()).resolve("target").resolve(service.moduleName() + ".jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: build it first (./mvnw -pl e2e-tests -am verify "
                    + "builds the services before this module)");
        }
        return jar;
    }
}
