package com.example.e2e.nemesis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.example.e2e.topology.Service;
import com.example.e2e.topology.ServiceNode;
import com.example.e2e.topology.Topology;

/**
 * The soak's nemesis: one fault after another, from a seed. It first deals a deck that holds every
 * kind of fault at least once, including the crash points whose duplicates every consumer must see
 * (a relay crash after the broker's confirm in order-service and in a downstream service, a consumer
 * crash after commit, and one in payment-service) and the payment provider's faults, in shuffled order;
 * then a consumer crash after commit in every service whose inbox has not suppressed a duplicate yet; then,
 * while the workload lasts, it keeps striking at random with faults that prove themselves without traffic.
 *
 * <p>The deck's relay crashes make duplicates only for the events their batch held: order-service's batch may hold
 * no {@code OrderCreated} (only payment requests, confirmations or compensations), and then inventory, coupon and
 * risk see no copy from it; whether a broker kill or a service kill leaves a consumer a duplicate depends on what was
 * in flight. A consumer crash after its commit and before its ack always does: the broker redelivers what that
 * instance held, and its inbox finds every id already processed. Dealing one wherever the log shows no duplicate
 * yet makes the soak's proof (every inbox suppressed a duplicate) independent of timing, for one crash per gap.
 *
 * <p>payment-service has a crash of its own because order-service's relay crash may not give it a duplicate:
 * payment-service sees a copy only if the batch that crashed held a {@code PaymentRequested}, and with two
 * relay lanes a batch holds only what committed since the other lane's claim, often no such event.
 */
public final class RandomNemesis {

    private static final Logger log = LoggerFactory.getLogger(RandomNemesis.class);
    private static final Duration CRASH_WITHIN = Duration.ofSeconds(90);
    private static final Service[] DOWNSTREAM = { Service.INVENTORY, Service.COUPON, Service.RISK };

    private final Nemesis nemesis;
    private final Topology topology;
    private final Random random;

    public RandomNemesis(Nemesis nemesis, Topology topology, long seed) {
        this.nemesis = nemesis;
        this.topology = topology;
        this.random = new Random(seed);
    }

    /**
     * Deals the whole deck and the consumer crashes for the services {@code duplicates} shows without one, then
     * strikes at random until {@code keepGoing} turns false, with a short random pause between faults. The crash
     * points need traffic to be reached, so the caller keeps its clients busy until {@code deckDealt} runs.
     */
    public void run(BooleanSupplier keepGoing, Supplier<Map<Service, Long>> duplicates, Runnable deckDealt) {
        List<Consumer<Nemesis>> deck = deck();
        while (!deck.isEmpty()) {
            deck.remove(0).accept(nemesis);
            pause();
        }
        for (Service service : Service.ours()) {
            if (duplicates.get().getOrDefault(service, 0L) == 0) {
                log.info("No duplicate suppressed by {} yet: a consumer crash after commit gives it one", service);
                nemesis.crashAt(topology.node(service), CrashPoint.CONSUMER_AFTER_COMMIT_BEFORE_ACK, CRASH_WITHIN, true);
                pause();
            }
        }
        log.info("Nemesis dealt its deck: {} faults", nemesis.faults().size());
        deckDealt.run();
        while (keepGoing.getAsBoolean()) {
            randomStrike().accept(nemesis);
            if (keepGoing.getAsBoolean()) {
                pause();
            }
        }
        log.info("Nemesis stops: {} faults injected", nemesis.faults().size());
    }

    private void pause() {
        Hold.forAtLeast(Duration.ofMillis(500 + random.nextInt(1000)));
    }

    private List<Consumer<Nemesis>> deck() {
        List<Consumer<Nemesis>> deck = new ArrayList<>();
        deck.add(n -> n.crashAt(topology.node(Service.ORDER), CrashPoint.RELAY_AFTER_PUBLISH_BEFORE_MARK, CRASH_WITHIN, true));
        deck.add(n -> n.crashAt(topology.node(pick(DOWNSTREAM)), CrashPoint.RELAY_AFTER_PUBLISH_BEFORE_MARK, CRASH_WITHIN,
                true));
        deck.add(n -> n.crashAt(topology.node(pick(Service.ours())), CrashPoint.CONSUMER_AFTER_COMMIT_BEFORE_ACK,
                CRASH_WITHIN, true));
        deck.add(n -> n.crashAt(topology.node(Service.PAYMENT), CrashPoint.CONSUMER_AFTER_COMMIT_BEFORE_ACK,
                CRASH_WITHIN, true));
        deck.add(n -> n.crashAt(topology.node(Service.ORDER), CrashPoint.ORDER_AFTER_COMMIT_BEFORE_RESPONSE, CRASH_WITHIN,
                true));
        deck.add(n -> n.killBroker(Duration.ofSeconds(3 + random.nextInt(3))));
        deck.add(n -> n.stopDatabase(Duration.ofSeconds(2 + random.nextInt(3))));
        deck.add(this::zombie);
        deck.add(n -> n.kill(topology.node(pick(Service.ours())), Duration.ofMillis(random.nextInt(1500))));
        deck.add(n -> n.killDuringStartup(topology.node(pick(Service.ours())), startupDelay()));
        deck.add(this::providerFaults);
        Collections.shuffle(deck, random);
        return deck;
    }

    private Consumer<Nemesis> randomStrike() {
        return switch (random.nextInt(6)) {
            case 0 -> n -> n.killBroker(Duration.ofSeconds(3 + random.nextInt(3)));
            case 1 -> n -> n.stopDatabase(Duration.ofSeconds(2 + random.nextInt(3)));
            case 2 -> this::zombie;
            case 3 -> n -> n.killDuringStartup(topology.node(pick(Service.ours())), startupDelay());
            case 4 -> this::providerFaults;
            default -> n -> n.kill(topology.node(pick(Service.ours())), Duration.ofMillis(random.nextInt(1500)));
        };
    }

    /** Pauses the first instance of a service that has a second one running; a SIGKILL when none has. */
    private void zombie(Nemesis n) {
        for (Service service : Service.ours()) {
            List<ServiceNode> running = topology.running(service);
            if (running.size() >= 2) {
                n.zombie(running.get(0), running.get(1), Duration.ofSeconds(12 + random.nextInt(3)));
                return;
            }
        }
        n.kill(topology.node(pick(DOWNSTREAM)), Duration.ofSeconds(1));
    }

    /**
     * The payment provider failing and withholding answers for a few seconds. Never declining: the mix's declined
     * payments are the ones it must decline by their amount, and every other intent is planned to end as it says.
     */
    private void providerFaults(Nemesis n) {
        n.providerFaults(new ProviderFaults(random.nextInt(200), 10 + random.nextInt(30), 10 + random.nextInt(30), 0),
                Duration.ofSeconds(3 + random.nextInt(5)));
    }

    /** Early in a start-up: the JVM runs, Spring is not ready yet (a start takes about three seconds here). */
    private Duration startupDelay() {
        return Duration.ofMillis(700 + random.nextInt(1000));
    }

    private Service pick(Service[] services) {
        return services[random.nextInt(services.length)];
    }
}
