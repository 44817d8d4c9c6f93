package com.example.e2e.topology;

/** The PostgreSQL server that holds the services' databases (and the payment simulator's). */
public interface DatabaseNode {

    /** A JDBC URL for one database on the server (the checker connects read-only). */
    String jdbcUrl(String database);

    String user();

    String password();

    /** An immediate stop: like a crash, open connections are cut and recovery runs on the next start. */
    void stopNow();

    /** Starts the server again on the same port and data; returns when it accepts connections. */
    void start();

    boolean isRunning();
}
