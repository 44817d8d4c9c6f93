# One image per service, from the jar Maven built (./mvnw -B package -DskipTests):
#   docker build -f docker/service.Dockerfile --build-arg MODULE=order-service --build-arg PORT=8081 .
# BASE_IMAGE is any Java 17+ runtime with bash (the healthcheck speaks HTTP through bash's /dev/tcp).
ARG BASE_IMAGE=eclipse-temurin:17.0.15_6-jre
FROM ${BASE_IMAGE}
ARG MODULE
ARG PORT
RUN test -n "${MODULE}" -a -n "${PORT}" || { echo "build arguments MODULE and PORT are required" >&2; exit 1; } \
 && useradd --system --uid 10001 --user-group --home-dir /app --no-create-home --shell /usr/sbin/nologin app
WORKDIR /app
COPY --chown=10001:10001 ${MODULE}/target/${MODULE}.jar app.jar
# Heap and metaspace sized from the container's memory limit; serial GC suits one or two cores; the monitoring
# counters sampled once a second (less CPU while idle).
ENV SERVER_PORT=${PORT} \
    JAVA_OPTS="-XX:MaxRAMPercentage=50 -XX:+UseSerialGC -XX:PerfDataSamplingInterval=1000 -XX:+ExitOnOutOfMemoryError" \
    LANG=C.UTF-8
USER 10001:10001
EXPOSE ${PORT}
# Ready means the database, the broker and the outbox relay are fine (docs/contract.md: readiness group).
HEALTHCHECK --interval=5s --timeout=3s --start-period=300s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${SERVER_PORT} && printf 'GET /readyz HTTP/1.0\\r\\nHost: localhost\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -q ' 200 '"]
ENTRYPOINT ["sh", "-c", "exec java ${JAVA_OPTS} -jar /app/app.jar"]
