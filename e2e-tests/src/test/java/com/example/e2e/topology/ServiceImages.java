package com.example.e2e.topology;

import java.util.HashMap;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.images.builder.ImageFromDockerfile;

/**
 * Builds a service's image the way {@code compose.yaml} does: {@code docker/service.Dockerfile} with the jar
 * Maven built, on the JRE base image given. Only the Dockerfile and the one jar are sent as the build context.
 * The tag is the same every run, so Docker's build cache makes an unchanged jar cost next to nothing; a
 * changed jar leaves the old image untagged, and the next run deletes it (see {@link DockerEngine#removeLeftovers()}).
 */
final class ServiceImages {

    private static final Logger log = LoggerFactory.getLogger(ServiceImages.class);

    private ServiceImages() {
    }

    /** Builds the image and returns its name. */
    static String build(Service service, HarnessPaths paths, String baseImage, Map<String, String> labels) {
        String module = service.moduleName();
        String name = "exactly-once-orders/e2e-" + module + ":latest";
        long started = System.nanoTime();
        new ImageFromDockerfile(name, false)
                .withFileFromPath("Dockerfile", paths.repositoryRoot().resolve("docker").resolve("service.Dockerfile"))
                .withFileFromPath(module + "/target/" + module + ".jar", paths.jar(service))
                .withBuildArg("MODULE", module)
                .withBuildArg("PORT", Integer.toString(service.defaultPort()))
                .withBuildArg("BASE_IMAGE", baseImage)
                .withBuildImageCmdModifier(cmd -> {
                    // Only the harness label, not the run's: a run label would defeat the build cache.
                    Map<String, String> all = new HashMap<>(cmd.getLabels() == null ? Map.of() : cmd.getLabels());
                    all.put(DockerEngine.HARNESS_LABEL, labels.get(DockerEngine.HARNESS_LABEL));
                    cmd.withLabels(all);
                })
                .get();
        log.info("Image {} built in {} ms", name, (System.nanoTime() - started) / 1_000_000);
        return name;
    }
}
