package com.example.e2e.bench;

/** How many operations finished in how long. */
public record Throughput(long operations, double seconds) {

    public double perSecond() {
        return seconds <= 0 ? 0 : operations / seconds;
    }

    /** This rate as a share of another (e.g. the order API of the database ceiling): 0.5 is half. */
    public double ratioTo(Throughput ceiling) {
        return ceiling.perSecond() <= 0 ? 0 : perSecond() / ceiling.perSecond();
    }
}
