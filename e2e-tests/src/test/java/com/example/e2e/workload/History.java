package com.example.e2e.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The workload's history: one entry per intent, with every attempt the client made. */
public record History(List<IntentHistory> intents) {

    public History {
        intents = List.copyOf(intents);
    }

    public static History empty() {
        return new History(List.of());
    }

    public History plus(History more) {
        List<IntentHistory> all = new ArrayList<>(intents);
        all.addAll(more.intents);
        return new History(all);
    }

    public long count(Outcome outcome) {
        return intents.stream().filter(intent -> intent.outcome() == outcome).count();
    }

    public Map<Outcome, Long> byOutcome() {
        return intents.stream().collect(Collectors.groupingBy(IntentHistory::outcome, Collectors.counting()));
    }

    /** Responses marked {@code Idempotent-Replayed}, retries and double submits alike. */
    public long replays() {
        return intents.stream().mapToLong(IntentHistory::replays).sum();
    }

    /** Intents that had to be sent again because a request got no usable answer. */
    public long retriedIntents() {
        return intents.stream().filter(IntentHistory::retried).count();
    }

    /** Intents whose retry, after a lost answer, was answered as a replay of the order already made. */
    public long replaysAfterRetry() {
        return intents.stream().filter(IntentHistory::answeredAsReplayAfterRetry).count();
    }

    public long attempts() {
        return intents.stream().mapToLong(intent -> intent.attempts().size()).sum();
    }

    public Map<Plan, Long> byPlan() {
        return intents.stream().collect(Collectors.groupingBy(intent -> intent.intent().plan(), Collectors.counting()));
    }

    public <K> Map<K, IntentHistory> indexBy(Function<IntentHistory, K> key) {
        return intents.stream().collect(Collectors.toMap(key, Function.identity(), (a, b) -> a));
    }
}
