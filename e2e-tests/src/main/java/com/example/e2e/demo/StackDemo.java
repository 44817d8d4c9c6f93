package com.example.e2e.demo;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ./stack demo}: against a running stack, seeds stock and coupons, places five orders and
 * prints how each one unfolds, with tokens it signs itself with the development key, and what the payment simulator's
 * ledger ({@code GET /ledger}) holds for each. JDK only, so the script runs it straight from source
 * ({@code java StackDemo.java}) without a build.
 *
 * <ol>
 * <li>an order that is confirmed and paid: one succeeded charge of its amount at the provider;</li>
 * <li>an order rejected for lack of stock, whose coupon is redeemed and then released again, and never charged;</li>
 * <li>an order whose client retries three times with the same idempotency key: one order, charged once;</li>
 * <li>an order whose charge times out at the provider (the simulator's {@code PUT /faults}
 * {@code timeout_after_charge_percent: 100}: the charge is made, the answer never comes): payment-service asks the
 * provider what happened instead of charging again, and the order is confirmed, paid once; the faults are off again
 * afterwards, whatever happens;</li>
 * <li>a confirmed order its owner cancels ({@code POST /orders/{id}/cancellation}): stock released, coupon active
 * again, payment refunded at the provider.</li>
 * </ol>
 */
public final class StackDemo {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(30);

    private static DevelopmentIssuer issuer;

    private final String orders;
    private final String inventory;
    private final String coupons;
    private final String simulator;
    private final long run = System.currentTimeMillis() % 1_000_000;
    private final List<String> verdicts = new ArrayList<>();

    private StackDemo(String orders, String inventory, String coupons, String simulator) {
        this.orders = orders;
        this.inventory = inventory;
        this.coupons = coupons;
        this.simulator = simulator;
    }

    public static void main(String[] args) throws Exception {
        StackDemo demo = new StackDemo(arg(args, 0, "http://localhost:8081"), arg(args, 1, "http://localhost:8082"),
                arg(args, 2, "http://localhost:8083"), arg(args, 4, "http://localhost:8090"));
        issuer = DevelopmentIssuer.load(Path.of(arg(args, 3, ".stack/jwt/private.pem")));
        boolean allRight = demo.run();
        System.exit(allRight ? 0 : 1);
    }

    private boolean run() throws Exception {
        long plentySku = 900_000 + run % 1000 * 3;
        long scarceSku = plentySku + 1;
        String couponA = "DEMO-A-" + run;
        String couponB = "DEMO-B-" + run;
        String couponC = "DEMO-C-" + run;
        say("Seeding: sku %d has 100 units at 19.99, sku %d has 1 unit at 5.00; coupons %s (10%%), %s (15%%) and %s "
                + "(20%%) are active.%n", plentySku, scarceSku, couponA, couponB, couponC);
        put(inventory + "/stock/" + plentySku, "{\"available\": 100, \"price_cents\": 1999}");
        put(inventory + "/stock/" + scarceSku, "{\"available\": 1, \"price_cents\": 500}");
        put(coupons + "/coupons/" + couponA, "{\"discount_percent\": 10}");
        put(coupons + "/coupons/" + couponB, "{\"discount_percent\": 15}");
        put(coupons + "/coupons/" + couponC, "{\"discount_percent\": 20}");
        // Whatever an earlier run or a test left behind: the provider behaves until (d) says otherwise.
        setFaults(0);

        say("%n(a) An order that should be CONFIRMED and paid: 2 units of sku %d with coupon %s%n", plentySku, couponA);
        String a = place(userId(1), List.of(plentySku, plentySku), couponA, UUID.randomUUID());
        String endA = timeline(a);
        String chargeA = charges(a);
        // 2 x 19.99 less 10%: 35.982, rounded down to 35.98.
        verdict("(a) confirmed and paid order", endA.contains("status=CONFIRMED") && endA.contains("amount_cents=3598")
                && endA.contains("payment=OK") && paidOnce(chargeA, 3598), endA + ", " + chargeA);

        say("%n(b) An order that should be REJECTED: 5 units of sku %d (only 1 in stock) with coupon %s%n", scarceSku,
                couponB);
        String b = place(userId(2), List.of(scarceSku, scarceSku, scarceSku, scarceSku, scarceSku), couponB,
                UUID.randomUUID());
        String endB = timeline(b);
        String coupon = get(coupons + "/coupons/" + couponB).body();
        say("    coupon %s is now %s%n", couponB, field(coupon, "status"));
        boolean released = field(coupon, "status").equals("ACTIVE") && !endB.contains("coupon=OK");
        String chargeB = charges(b);
        verdict("(b) out-of-stock order", endB.contains("status=REJECTED") && released && !endB.contains("payment=OK")
                && chargeB.startsWith("no charge"), endB + ", coupon " + field(coupon, "status") + ", " + chargeB);

        UUID key = UUID.randomUUID();
        long user = userId(3);
        say("%n(c) A client that times out and retries three times with the same idempotency key %s%n", key);
        List<String> ids = new ArrayList<>();
        for (int attempt = 1; attempt <= 4; attempt++) {
            HttpResponse<String> response = post(user, List.of(plentySku), null, key);
            String id = field(response.body(), "order_id");
            ids.add(id);
            say("    attempt %d: HTTP %d%s, order %s%n", attempt, response.statusCode(),
                    response.headers().firstValue("Idempotent-Replayed").map(v -> " (Idempotent-Replayed: " + v + ")")
                            .orElse(""), id);
        }
        String endC = timeline(ids.get(0));
        String chargeC = charges(ids.get(0));
        boolean oneOrder = ids.stream().distinct().count() == 1;
        verdict("(c) retried order", oneOrder && endC.contains("status=CONFIRMED") && endC.contains("payment=OK")
                && paidOnce(chargeC, 1999),
                (oneOrder ? "one order for four requests" : "several orders: " + ids) + ", " + endC + ", " + chargeC);

        say("%n(d) An order whose charge times out at the provider: the simulator makes every charge, then keeps the "
                + "answer (PUT %s/faults {\"timeout_after_charge_percent\": 100}); 3 units of sku %d%n", simulator,
                plentySku);
        String endD;
        String d;
        try {
            setFaults(100);
            d = place(userId(4), List.of(plentySku, plentySku, plentySku), null, UUID.randomUUID());
            endD = timeline(d);
        } finally {
            setFaults(0);
        }
        say("    provider faults are off again: %s%n", get(simulator + "/faults", false).body());
        String chargeD = charges(d);
        // 3 x 19.99, no coupon: 59.97. Charged once, although payment-service never got the charge's answer.
        verdict("(d) payment timed out at the provider", endD.contains("status=CONFIRMED")
                && endD.contains("payment=OK") && endD.contains("amount_cents=5997") && paidOnce(chargeD, 5997),
                endD + ", " + chargeD);

        say("%n(e) A confirmed order its owner cancels: 1 unit of sku %d with coupon %s%n", plentySku, couponC);
        long userE = userId(5);
        String e = place(userE, List.of(plentySku), couponC, UUID.randomUUID());
        String confirmedE = timeline(e);
        String chargeE = charges(e);
        boolean paidE = confirmedE.contains("status=CONFIRMED") && confirmedE.contains("payment=OK")
                && paidOnce(chargeE, 1599);
        HttpResponse<String> cancelled = cancel(userE, e);
        say("    POST /orders/%s/cancellation (the owner): HTTP %d, %s%n", e, cancelled.statusCode(),
                describe(cancelled.body()));
        String endE = timeline(e);
        HttpResponse<String> again = cancel(userE, e);
        say("    again: HTTP %d%s%n", again.statusCode(), again.headers().firstValue("Idempotent-Replayed")
                .map(v -> " (Idempotent-Replayed: " + v + ")").orElse(""));
        String refundE = refunds(e);
        String couponNow = field(get(coupons + "/coupons/" + couponC).body(), "status");
        say("    coupon %s is now %s%n", couponC, couponNow);
        // 19.99 less 20%: 15.992, rounded down to 15.99; refunded in full, once.
        verdict("(e) cancelled and refunded order", paidE && cancelled.statusCode() == 200
                && endE.contains("status=CANCELLED") && endE.contains("payment=REFUNDED")
                && !endE.matches(".*(inventory|coupon)=OK.*") && couponNow.equals("ACTIVE") && again.statusCode() == 200
                && refundE.startsWith("refunded 1599"), endE + ", " + chargeE + ", " + refundE);

        say("%nVerdicts:%n");
        verdicts.forEach(line -> say("  %s%n", line));
        return verdicts.stream().allMatch(line -> line.startsWith("PASS"));
    }

    private long userId(int n) {
        // A new user per run, so that risk's per-user rate limit does not see earlier demos.
        return run * 10 + n;
    }

    private String place(long user, List<Long> skus, String coupon, UUID key) throws Exception {
        HttpResponse<String> response = post(user, skus, coupon, key);
        if (response.statusCode() != 201) {
            throw new IllegalStateException("POST /orders answered " + response.statusCode() + ": " + response.body());
        }
        return field(response.body(), "order_id");
    }

    /** Prints each change of the order until it is final and its steps have settled; returns the last state. */
    private String timeline(String orderId) throws Exception {
        long start = System.nanoTime();
        long deadline = start + SETTLE_TIMEOUT.toNanos();
        String last = "";
        String lastChange = "";
        long lastChangeAt = start;
        while (System.nanoTime() < deadline) {
            String state = describe(get(orders + "/orders/" + orderId).body());
            if (!state.equals(last)) {
                say("    +%5.2fs  order %s  %s%n", (System.nanoTime() - start) / 1e9, orderId, state);
                last = state;
                lastChangeAt = System.nanoTime();
                lastChange = state;
            }
            if (settled(state) && System.nanoTime() - lastChangeAt > 500_000_000L) {
                break;
            }
            Thread.sleep(50);
        }
        return lastChange;
    }

    /**
     * Final and quiet: not CREATED, inventory, coupon and risk have answered, and a rejected or cancelled order has
     * nothing left to undo (no stock or coupon still OK, no payment not yet refunded). A rejected order's payment that
     * was never asked for stays PENDING.
     */
    private static boolean settled(String state) {
        if (state.contains("status=CREATED") || state.matches(".*(inventory|coupon|risk)=PENDING.*")) {
            return false;
        }
        boolean closed = state.contains("status=REJECTED") || state.contains("status=CANCELLED");
        return !(closed && state.matches(".*(inventory|coupon|payment)=OK.*"))
                && !(state.contains("status=CANCELLED") && state.contains("payment=PENDING"));
    }

    private static String describe(String order) {
        String reason = field(order, "rejection_reason");
        String amount = field(order, "amount_cents");
        return "status=" + field(order, "status") + "  inventory=" + field(order, "inventory") + " coupon="
                + field(order, "coupon") + " risk=" + field(order, "risk") + " payment=" + field(order, "payment")
                + (amount.isEmpty() || amount.equals("null") ? "" : "  amount_cents=" + amount)
                + (reason.isEmpty() || reason.equals("null") ? "" : "  (" + reason + ")");
    }

    /** The provider's side of an order: its charges in the simulator's ledger (reference {@code order-<id>}). */
    private String charges(String orderId) throws Exception {
        List<String> charges = ledger("reference", "order-" + orderId);
        String line;
        if (charges.isEmpty()) {
            line = "no charge at the provider";
        } else {
            List<String> described = new ArrayList<>();
            for (String charge : charges) {
                described.add(field(charge, "charge_id") + " " + field(charge, "status") + " "
                        + field(charge, "amount_cents"));
            }
            line = charges.size() + " charge" + (charges.size() == 1 ? "" : "s") + " at the provider: "
                    + String.join(", ", described);
        }
        say("    ledger: %s%n", line);
        return line;
    }

    /** Exactly one charge for the order, succeeded, of {@code amount} cents. */
    private static boolean paidOnce(String charges, long amount) {
        return charges.startsWith("1 charge at the provider: ") && charges.endsWith(" succeeded " + amount);
    }

    /**
     * The refunds of the order's charges in the simulator's ledger. Read once, after the order's timeline settled: the
     * payment step is REFUNDED only after payment-service recorded the refund the provider had confirmed.
     */
    private String refunds(String orderId) throws Exception {
        List<String> refunds = new ArrayList<>();
        for (String charge : ledger("reference", "order-" + orderId)) {
            refunds.addAll(ledger("charge_id", field(charge, "charge_id")).stream()
                    .filter(entry -> !field(entry, "refund_id").isEmpty()).toList());
        }
        String line = refunds.size() == 1
                ? "refunded " + field(refunds.get(0), "amount_cents") + " (" + field(refunds.get(0), "refund_id")
                        + " of charge " + field(refunds.get(0), "charge_id") + ")"
                : refunds.size() + " refunds at the provider: " + refunds;
        say("    ledger: %s%n", line);
        return line;
    }

    /** The entries of the simulator's ledger (charges and refunds: flat objects) whose {@code name} is {@code value}. */
    private List<String> ledger(String name, String value) throws Exception {
        HttpResponse<String> response = get(simulator + "/ledger", false);
        if (response.statusCode() != 200) {
            throw new IllegalStateException("GET " + simulator + "/ledger answered " + response.statusCode());
        }
        List<String> entries = new ArrayList<>();
        Matcher entry = Pattern.compile("\\{[^{}]*\\}").matcher(response.body());
        while (entry.find()) {
            if (field(entry.group(), name).equals(value)) {
                entries.add(entry.group());
            }
        }
        return entries;
    }

    /** The simulator's fault knobs: every charge and refund made but its answer withheld, or (0) none. */
    private void setFaults(int timeoutAfterChargePercent) throws Exception {
        String body = "{\"latency_ms\": 0, \"error_before_percent\": 0, \"timeout_after_charge_percent\": "
                + timeoutAfterChargePercent + ", \"decline_percent\": 0}";
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(simulator + "/faults"))
                .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("PUT " + simulator + "/faults answered " + response.statusCode() + ": "
                    + response.body());
        }
    }

    private void verdict(String name, boolean right, String detail) {
        verdicts.add((right ? "PASS  " : "FAIL  ") + name + ": " + detail);
    }

    private HttpResponse<String> post(long user, List<Long> skus, String coupon, UUID key) throws Exception {
        String body = "{\"user_id\": " + user + ", \"sku_ids\": " + skus + ", \"idempotency_key\": \"" + key + "\""
                + (coupon == null ? "" : ", \"coupon_code\": \"" + coupon + "\"") + "}";
        // As the customer: a customer's token may place orders for its own user id only.
        return send(HttpRequest.newBuilder(URI.create(orders + "/orders")).header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + issuer.token(Long.toString(user), "orders"))
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** As the order's owner: a customer may cancel their own orders. */
    private HttpResponse<String> cancel(long user, String orderId) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(orders + "/orders/" + orderId + "/cancellation"))
                .header("Authorization", "Bearer " + issuer.token(Long.toString(user), "orders"))
                .POST(HttpRequest.BodyPublishers.noBody()));
    }

    private static void put(String url, String body) throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(body)));
        if (response.statusCode() != 200) {
            throw new IllegalStateException("PUT " + url + " answered " + response.statusCode() + ": " + response.body());
        }
    }

    private static HttpResponse<String> get(String url) throws Exception {
        return get(url, true);
    }

    /** @param ours false for the payment simulator, which takes no JWT (its /ledger and /faults want no key) */
    private static HttpResponse<String> get(String url, boolean ours) throws Exception {
        if (!ours) {
            return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
        }
        return send(HttpRequest.newBuilder(URI.create(url)).GET());
    }

    /** Sends as an operator unless the request already carries a customer's token. */
    private static HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        HttpRequest built = request.timeout(Duration.ofSeconds(10)).build();
        if (built.headers().firstValue("Authorization").isEmpty()) {
            built = HttpRequest.newBuilder(built, (name, value) -> true)
                    .header("Authorization", "Bearer " + issuer.token("operator", "admin")).build();
        }
        return HTTP.send(built, HttpResponse.BodyHandlers.ofString());
    }

    /**
     * Signs tokens (RS256, one hour) with the development key that {@code ./stack up} made, as an identity provider
     * would: {@code sub} the user id, {@code scope} {@code orders} for a customer or {@code admin} for an operator.
     */
    static final class DevelopmentIssuer {

        private final PrivateKey key;

        private DevelopmentIssuer(PrivateKey key) {
            this.key = key;
        }

        /** Reads a PKCS#8 PEM private key ({@code -----BEGIN PRIVATE KEY-----}). */
        static DevelopmentIssuer load(Path pem) throws IOException, GeneralSecurityException {
            if (!Files.isReadable(pem)) {
                throw new IllegalStateException(pem + " is missing: ./stack up creates the development key pair");
            }
            String base64 = Files.readString(pem).replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
            return new DevelopmentIssuer(KeyFactory.getInstance("RSA")
                    .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64))));
        }

        String token(String subject, String scope) {
            long now = System.currentTimeMillis() / 1000;
            String header = encode("{\"alg\":\"RS256\",\"typ\":\"JWT\"}");
            String claims = encode("{\"sub\":\"" + subject + "\",\"scope\":\"" + scope + "\",\"iss\":\"https://dev-issuer.invalid\","
                    + "\"iat\":" + now + ",\"exp\":" + (now + 3600) + "}");
            try {
                Signature signature = Signature.getInstance("SHA256withRSA");
                signature.initSign(key);
                signature.update((header + "." + claims).getBytes(StandardCharsets.US_ASCII));
                return header + "." + claims + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(signature.sign());
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("could not sign a token", e);
            }
        }

        private static String encode(String json) {
            return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** The value of a scalar field anywhere in a small JSON document (enough for the demo's flat bodies). */
    static String field(String json, String name) {
        Matcher matcher = Pattern.compile("\"" + Pattern.quote(name) + "\"\\s*:\\s*(\"((?:[^\"\\\\]|\\\\.)*)\"|[^,}\\]]+)")
                .matcher(json);
        if (!matcher.find()) {
            return "";
        }
        return matcher.group(2) != null ? matcher.group(2) : matcher.group(1).trim();
    }

    private static void say(String format, Object... args) {
        System.out.printf(format, args);
    }

    private static String arg(String[] args, int index, String fallback) {
        return args.length > index ? args[index] : fallback;
    }
}
