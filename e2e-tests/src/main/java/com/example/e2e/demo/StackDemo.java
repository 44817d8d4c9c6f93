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
 * {@code ./stack demo}: against a running stack, seeds stock and coupons, places three orders and
 * prints how each one unfolds, with tokens it signs itself with the development key. JDK only, so the script runs it straight from source
 * ({@code java StackDemo.java}) without a build.
 *
 * <ol>
 * <li>an order that is confirmed;</li>
 * <li>an order rejected for lack of stock, whose coupon is redeemed and then released again;</li>
 * <li>an order whose client retries three times with the same idempotency key: one order.</li>
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
    private final long run = System.currentTimeMillis() % 1_000_000;
    private final List<String> verdicts = new ArrayList<>();

    private StackDemo(String orders, String inventory, String coupons) {
        this.orders = orders;
        this.inventory = inventory;
        this.coupons = coupons;
    }

    public static void main(String[] args) throws Exception {
        StackDemo demo = new StackDemo(arg(args, 0, "http://localhost:8081"), arg(args, 1, "http://localhost:8082"),
                arg(args, 2, "http://localhost:8083"));
        issuer = DevelopmentIssuer.load(Path.of(arg(args, 3, ".stack/jwt/private.pem")));
        boolean allRight = demo.run();
        System.exit(allRight ? 0 : 1);
    }

    private boolean run() throws Exception {
        long plentySku = 900_000 + run % 1000 * 3;
        long scarceSku = plentySku + 1;
        String couponA = "DEMO-A-" + run;
        String couponB = "DEMO-B-" + run;
        say("Seeding: sku %d has 100 units at 19.99, sku %d has 1 unit at 5.00; coupons %s (10%%) and %s (15%%) are "
                + "active.%n", plentySku, scarceSku, couponA, couponB);
        put(inventory + "/stock/" + plentySku, "{\"available\": 100, \"price_cents\": 1999}");
        put(inventory + "/stock/" + scarceSku, "{\"available\": 1, \"price_cents\": 500}");
        put(coupons + "/coupons/" + couponA, "{\"discount_percent\": 10}");
        put(coupons + "/coupons/" + couponB, "{\"discount_percent\": 15}");

        say("%n(a) An order that should be CONFIRMED: 2 units of sku %d with coupon %s%n", plentySku, couponA);
        String a = place(userId(1), List.of(plentySku, plentySku), couponA, UUID.randomUUID());
        String endA = timeline(a);
        // 2 x 19.99 less 10%: 35.982, rounded down to 35.98.
        verdict("(a) confirmed order", endA.contains("status=CONFIRMED") && endA.contains("amount_cents=3598"), endA);

        say("%n(b) An order that should be REJECTED: 5 units of sku %d (only 1 in stock) with coupon %s%n", scarceSku,
                couponB);
        String b = place(userId(2), List.of(scarceSku, scarceSku, scarceSku, scarceSku, scarceSku), couponB,
                UUID.randomUUID());
        String endB = timeline(b);
        String coupon = get(coupons + "/coupons/" + couponB).body();
        say("    coupon %s is now %s%n", couponB, field(coupon, "status"));
        boolean released = field(coupon, "status").equals("ACTIVE") && !endB.contains("coupon=OK");
        verdict("(b) out-of-stock order", endB.contains("status=REJECTED") && released,
                endB + ", coupon " + field(coupon, "status"));

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
        boolean oneOrder = ids.stream().distinct().count() == 1;
        verdict("(c) retried order", oneOrder && endC.contains("status=CONFIRMED"),
                (oneOrder ? "one order for four requests" : "several orders: " + ids) + ", " + endC);

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
            boolean settled = !state.contains("status=CREATED") && !state.contains("PENDING")
                    && !(state.contains("status=REJECTED") && state.matches(".*(inventory|coupon)=OK.*"));
            if (settled && System.nanoTime() - lastChangeAt > 500_000_000L) {
                break;
            }
            Thread.sleep(50);
        }
        return lastChange;
    }

    private static String describe(String order) {
        String reason = field(order, "rejection_reason");
        String amount = field(order, "amount_cents");
        return "status=" + field(order, "status") + "  inventory=" + field(order, "inventory") + " coupon="
                + field(order, "coupon") + " risk=" + field(order, "risk")
                + (amount.isEmpty() || amount.equals("null") ? "" : "  amount_cents=" + amount)
                + (reason.isEmpty() || reason.equals("null") ? "" : "  (" + reason + ")");
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

    private static void put(String url, String body) throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(body)));
        if (response.statusCode() != 200) {
            throw new IllegalStateException("PUT " + url + " answered " + response.statusCode() + ": " + response.body());
        }
    }

    private static HttpResponse<String> get(String url) throws Exception {
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
            String claims = encode("{\"sub\":\"" + subject + "\",\"scope\":\"" + scope + "\",\"iss\":\"stack\","
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
