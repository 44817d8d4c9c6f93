package com.example.e2e.nemesis;

/** The kinds of fault the nemesis injects. */
public enum FaultKind {
    /** SIGKILL of a running service instance. */
    SERVICE_KILL,
    /** SIGKILL of a service instance that is still starting up. */
    KILL_DURING_STARTUP,
    /** A service (re)started with a crash point armed, halting itself there (exit code 86). */
    CRASH_POINT,
    /** SIGKILL of the RabbitMQ node, then a restart. */
    BROKER_KILL,
    /** Immediate stop of PostgreSQL, then a restart. */
    DATABASE_STOP,
    /** A consumer instance paused (SIGSTOP) while another instance takes over, then resumed. */
    ZOMBIE,
    /** Replies rejected on purpose in order-service's queue, so that the broker dead-letters them; re-driven later. */
    REPLY_DEAD_LETTERED,
    /** The broker's memory alarm raised while orders arrive (it blocks every publishing connection), then cleared. */
    BROKER_MEMORY_ALARM,
    /** Every service instance stopped (SIGTERM, graceful) and started again, one at a time. */
    ROLLING_RESTART,
    /**
     * The payment provider misbehaving for a while: 5xx before doing anything, answers withheld after charging (the
     * unknown outcome), latency, declines.
     */
    PROVIDER_FAULTS
}
