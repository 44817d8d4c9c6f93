package com.example.e2e.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Stroke;
import java.awt.geom.AffineTransform;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

import javax.imageio.ImageIO;

/**
 * The three charts of a benchmark run, drawn with java.awt alone: {@code bench-cost.png} stacks the CPU an order
 * costs each process of the system (for the cost phase, and for the baseline and each lever when they ran) against
 * the CPU target, {@code bench-throughput.png} puts the order API and the relay drain next to the ceilings of their
 * database and broker, {@code bench-latency.png} shows the latency percentiles against the latency targets.
 * {@link BenchReport}'s Markdown links all three.
 */
public final class BenchCharts {

    static {
        System.setProperty("java.awt.headless", "true");
    }

    static final String COST_FILE = "bench-cost.png";
    static final String THROUGHPUT_FILE = "bench-throughput.png";
    static final String LATENCY_FILE = "bench-latency.png";
    static final int WIDTH = 900;
    static final int HEIGHT = 500;

    private static final Color TEXT = new Color(0x222222);
    private static final Color MUTED = new Color(0x555555);
    private static final Color GRID = new Color(0xE3E3E3);
    private static final Color AXIS = new Color(0x444444);
    private static final Color TARGET = new Color(0x333333);
    private static final Color CEILING = new Color(0xA9B4C2);
    private static final Color MEASURED = new Color(0x3A6EA5);
    private static final Color[] PERCENTILE_COLOURS = { new Color(0x4E79A7), new Color(0xF28E2B), new Color(0xE15759) };
    /** One per process of the system, in the order the cost lists them (the services, PostgreSQL, RabbitMQ). */
    private static final Color[] PROCESS_COLOURS = { new Color(0x4E79A7), new Color(0xF28E2B), new Color(0xE15759),
            new Color(0x76B7B2), new Color(0x59A14F), new Color(0xB07AA1), new Color(0x9C755F), new Color(0xBAB0AC) };
    private static final String[] PERCENTILE_NAMES = { "p50", "p95", "p99" };
    private static final Stroke DASHED = new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
            new float[] { 8f, 6f }, 0f);
    private static final Stroke THIN = new BasicStroke(1f);
    private static final Font TITLE_FONT = new Font(Font.SANS_SERIF, Font.BOLD, 20);
    private static final Font LABEL_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 14);
    private static final Font BAR_FONT = new Font(Font.SANS_SERIF, Font.BOLD, 13);
    private static final Font SMALL_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
    private static final Font VALUE_FONT = new Font(Font.SANS_SERIF, Font.PLAIN, 11);

    // Throughput chart: horizontal bars, two groups of two.
    private static final int T_LEFT = 190;
    private static final int T_RIGHT = 860;
    private static final int T_TOP = 100;
    private static final int T_BOTTOM = 400;
    private static final int BAR_HEIGHT = 50;
    private static final int BAR_STEP = 60;
    private static final int GROUP_GAP = 30;

    // Cost chart: one stacked horizontal bar per run, totals in the right margin.
    private static final int C_LEFT = 230;
    private static final int C_RIGHT = 700;
    private static final int C_TOP = 110;
    private static final int C_BOTTOM = 410;
    private static final int C_MAX_STEP = 80;

    // Latency chart: vertical bars, one group per series, target labels in the right margin.
    private static final int L_LEFT = 80;
    private static final int L_RIGHT = 700;
    private static final int L_TOP = 95;
    private static final int L_BOTTOM = 410;
    /** Lowest first: a label is pushed up when it would touch the one below. */
    private static final List<TargetLine> LATENCY_TARGETS = List.of(
            new TargetLine(Targets.REPLAY_P99_MS, "replay target p99 < " + tickLabel(Targets.REPLAY_P99_MS) + " ms"),
            new TargetLine(Targets.END_TO_END_P99_MS, "e2e target p99 < " + tickLabel(Targets.END_TO_END_P99_MS) + " ms"));

    private BenchCharts() {
    }

    /** Writes the three charts into {@code directory}, creating it if needed. */
    public static void write(BenchResult result, Path directory) {
        try {
            Files.createDirectories(directory);
            save(costChart(result), directory.resolve(COST_FILE));
            save(throughputChart(result), directory.resolve(THROUGHPUT_FILE));
            save(latencyChart(result), directory.resolve(LATENCY_FILE));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void save(BufferedImage image, Path file) throws IOException {
        if (!ImageIO.write(image, "png", file.toFile())) {
            throw new IllegalStateException("no PNG writer for " + file);
        }
    }

    /** A horizontal bar: {@code ratio} of the axis (1 is the ceiling), {@code label} its absolute rate. */
    private record Bar(String name, double ratio, String label, Color colour) {
    }

    private static BufferedImage throughputChart(BenchResult result) {
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = canvas(image);
        try {
            title(g, "Throughput against the ceilings");
            List<Bar> bars = throughputBars(result);
            double axisMax = Math.max(1, Math.ceil(bars.stream().mapToDouble(Bar::ratio).max().orElse(1) * 4) / 4);
            percentAxis(g, axisMax);
            for (int index = 0; index < bars.size(); index++) {
                bar(g, bars.get(index), barTop(index), axisMax);
            }
            // Each target across its own pair of bars: the order API's against the database, the relay's the broker.
            ratioTarget(g, Targets.API_SHARE_OF_DATABASE / 100, barTop(0) - 6, barTop(1) + BAR_HEIGHT + 6, axisMax);
            ratioTarget(g, Targets.RELAY_SHARE_OF_BROKER / 100, barTop(2) - 6, barTop(3) + BAR_HEIGHT + 6, axisMax);
            for (int index = 0; index < bars.size(); index++) {
                barLabel(g, bars.get(index), barTop(index), axisMax);
            }
        } finally {
            g.dispose();
        }
        return image;
    }

    private static List<Bar> throughputBars(BenchResult result) {
        double orderApi = BenchReport.orderApiRatio(result);
        double relayDrain = BenchReport.relayDrainRatio(result);
        return List.of(
                new Bar("Database ceiling", 1, BenchReport.rate(result.databaseCeiling().perSecond()) + " tx/s", CEILING),
                new Bar("Order API", orderApi, BenchReport.rate(result.orderApi().throughput().perSecond())
                        + " orders/s (" + BenchReport.percent(orderApi) + ")", MEASURED),
                new Bar("Broker ceiling", 1, BenchReport.rate(result.brokerCeiling().perSecond()) + " msg/s", CEILING),
                new Bar("Relay drain", relayDrain, BenchReport.rate(result.relayDrain().perSecond())
                        + " events/s (" + BenchReport.percent(relayDrain) + ")", MEASURED));
    }

    private static int barTop(int index) {
        return T_TOP + 20 + index * BAR_STEP + index / 2 * GROUP_GAP;
    }

    private static int ratioX(double ratio, double axisMax) {
        return T_LEFT + (int) Math.round(ratio / axisMax * (T_RIGHT - T_LEFT));
    }

    private static void percentAxis(Graphics2D g, double axisMax) {
        g.setFont(SMALL_FONT);
        g.setStroke(THIN);
        for (int quarter = 0; quarter <= Math.round(axisMax * 4); quarter++) {
            int x = ratioX(quarter / 4.0, axisMax);
            g.setColor(GRID);
            g.drawLine(x, T_TOP, x, T_BOTTOM);
            g.setColor(MUTED);
            centred(g, String.format(Locale.ROOT, "%d%%", quarter * 25), x, T_BOTTOM + 20);
        }
        g.setColor(AXIS);
        g.drawLine(T_LEFT, T_TOP, T_LEFT, T_BOTTOM);
        g.setFont(LABEL_FONT);
        centred(g, "% of the ceiling measured in the same run", (T_LEFT + T_RIGHT) / 2, T_BOTTOM + 52);
    }

    private static void bar(Graphics2D g, Bar bar, int top, double axisMax) {
        g.setColor(bar.colour());
        g.fillRect(T_LEFT + 1, top, ratioX(bar.ratio(), axisMax) - T_LEFT, BAR_HEIGHT);
        g.setColor(TEXT);
        g.setFont(LABEL_FONT);
        rightAligned(g, bar.name(), T_LEFT - 12, middleBaseline(g, top + BAR_HEIGHT / 2));
    }

    private static void ratioTarget(Graphics2D g, double ratio, int top, int bottom, double axisMax) {
        int x = ratioX(ratio, axisMax);
        g.setColor(TARGET);
        g.setStroke(DASHED);
        g.drawLine(x, top, x, bottom);
        g.setStroke(THIN);
        g.setFont(SMALL_FONT);
        onWhite(g, "target " + BenchReport.percent(ratio), x - g.getFontMetrics().stringWidth("target 50%") / 2, top - 4);
    }

    /** Inside the bar from its start when it fits there, else just past its end on a white ground. */
    private static void barLabel(Graphics2D g, Bar bar, int top, double axisMax) {
        g.setFont(BAR_FONT);
        FontMetrics metrics = g.getFontMetrics();
        int width = metrics.stringWidth(bar.label());
        int end = ratioX(bar.ratio(), axisMax);
        int baseline = middleBaseline(g, top + BAR_HEIGHT / 2);
        if (width + 20 <= end - T_LEFT) {
            g.setColor(Color.WHITE);
            g.drawString(bar.label(), T_LEFT + 10, baseline);
        } else {
            onWhite(g, bar.label(), end + 8, baseline);
        }
    }

    /** One stacked bar: a run's CPU per order by process, and the load generator's beside it. */
    private record CostRow(String name, BenchResult.Cost cost) {
    }

    private static BufferedImage costChart(BenchResult result) {
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = canvas(image);
        try {
            title(g, "CPU per order by process");
            List<CostRow> rows = costRows(result);
            List<String> processes = List.copyOf(result.cost().cpuMillisPerOrder().keySet());
            processLegend(g, processes);
            double top = Math.max(rows.stream().mapToDouble(row -> row.cost().systemCpuMillisPerOrder()).max().orElse(0),
                    Targets.SYSTEM_CPU_MS_PER_ORDER) * 1.05;
            double step = niceStep(top);
            double axisMax = Math.ceil(top / step) * step;
            costAxis(g, step, axisMax);
            int rowStep = Math.min(C_MAX_STEP, (C_BOTTOM - C_TOP) / rows.size());
            int barHeight = rowStep * 2 / 3;
            // Few rows sit in the middle of the plot rather than at its top.
            int firstTop = C_TOP + (C_BOTTOM - C_TOP - rows.size() * rowStep) / 2 + (rowStep - barHeight) / 2;
            for (int index = 0; index < rows.size(); index++) {
                stackedBar(g, rows.get(index), processes, firstTop + index * rowStep, barHeight, axisMax);
            }
            int x = costX(Targets.SYSTEM_CPU_MS_PER_ORDER, axisMax);
            g.setColor(TARGET);
            g.setStroke(DASHED);
            g.drawLine(x, C_TOP - 4, x, C_BOTTOM);
            g.setStroke(THIN);
            g.setFont(SMALL_FONT);
            String label = "target ≤ " + tickLabel(Targets.SYSTEM_CPU_MS_PER_ORDER) + " ms (system)";
            onWhite(g, label, x - g.getFontMetrics().stringWidth(label) / 2, C_TOP - 10);
            for (int index = 0; index < rows.size(); index++) {
                stackedBarLabels(g, rows.get(index), processes, firstTop + index * rowStep, barHeight, axisMax);
            }
        } finally {
            g.dispose();
        }
        return image;
    }

    private static List<CostRow> costRows(BenchResult result) {
        List<CostRow> rows = new ArrayList<>();
        rows.add(new CostRow("Cost phase", result.cost()));
        if (result.levers() != null) {
            rows.add(new CostRow("Baseline (restarted)", result.levers().baseline()));
            result.levers().levers().forEach(lever -> rows.add(new CostRow(lever.name(), lever.cost())));
        }
        return rows;
    }

    private static int costX(double millis, double axisMax) {
        return C_LEFT + (int) Math.round(millis / axisMax * (C_RIGHT - C_LEFT));
    }

    private static void processLegend(Graphics2D g, List<String> processes) {
        g.setFont(SMALL_FONT);
        FontMetrics metrics = g.getFontMetrics();
        int width = processes.stream().mapToInt(name -> 14 + 6 + metrics.stringWidth(name) + 18).sum();
        int x = WIDTH / 2 - width / 2;
        for (int index = 0; index < processes.size(); index++) {
            g.setColor(PROCESS_COLOURS[index % PROCESS_COLOURS.length]);
            g.fillRect(x, 56, 14, 14);
            g.setColor(TEXT);
            g.drawString(processes.get(index), x + 20, middleBaseline(g, 63));
            x += 14 + 6 + metrics.stringWidth(processes.get(index)) + 18;
        }
    }

    private static void costAxis(Graphics2D g, double step, double axisMax) {
        g.setFont(SMALL_FONT);
        g.setStroke(THIN);
        for (int tick = 0; tick * step <= axisMax + step / 1000; tick++) {
            int x = costX(tick * step, axisMax);
            g.setColor(GRID);
            g.drawLine(x, C_TOP, x, C_BOTTOM);
            g.setColor(MUTED);
            centred(g, tickLabel(tick * step), x, C_BOTTOM + 20);
        }
        g.setColor(AXIS);
        g.drawLine(C_LEFT, C_TOP, C_LEFT, C_BOTTOM);
        g.setFont(LABEL_FONT);
        centred(g, "CPU ms per order (load generator beside, not part of the system)", (C_LEFT + C_RIGHT) / 2,
                C_BOTTOM + 52);
    }

    /** The run's name, and its segments in legend order. */
    private static void stackedBar(Graphics2D g, CostRow row, List<String> processes, int top, int height,
            double axisMax) {
        g.setFont(LABEL_FONT);
        g.setColor(TEXT);
        rightAligned(g, row.name(), C_LEFT - 12, middleBaseline(g, top + height / 2));
        double sum = 0;
        for (int index = 0; index < processes.size(); index++) {
            int from = costX(sum, axisMax);
            sum += row.cost().cpuMillisPerOrder().getOrDefault(processes.get(index), 0.0);
            g.setColor(PROCESS_COLOURS[index % PROCESS_COLOURS.length]);
            g.fillRect(from + 1, top, Math.max(0, costX(sum, axisMax) - from - 1), height);
        }
    }

    /** Each segment's value inside it where it fits (over the target line), the totals after the bar. */
    private static void stackedBarLabels(Graphics2D g, CostRow row, List<String> processes, int top, int height,
            double axisMax) {
        g.setFont(VALUE_FONT);
        FontMetrics metrics = g.getFontMetrics();
        double sum = 0;
        for (String process : processes) {
            double millis = row.cost().cpuMillisPerOrder().getOrDefault(process, 0.0);
            int from = costX(sum, axisMax);
            sum += millis;
            int to = costX(sum, axisMax);
            String value = valueLabel(millis);
            if (metrics.stringWidth(value) + 6 <= to - from && height >= metrics.getHeight()) {
                g.setColor(Color.WHITE);
                centred(g, value, (from + to) / 2, middleBaseline(g, top + height / 2));
            }
        }
        g.setFont(BAR_FONT);
        onWhite(g, BenchReport.ms(sum) + " ms", costX(sum, axisMax) + 8, middleBaseline(g, top + height / 2) - 8);
        g.setFont(SMALL_FONT);
        onWhite(g, "+ " + BenchReport.ms(row.cost().loadGeneratorCpuMillisPerOrder()) + " ms load generator",
                costX(sum, axisMax) + 8, middleBaseline(g, top + height / 2) + 10);
    }

    /** The latency percentiles of one series. */
    private record Series(String name, Latencies latencies) {

        double[] percentiles() {
            return new double[] { latencies.p50(), latencies.p95(), latencies.p99() };
        }
    }

    /** A latency bar, drawn as a labelled dashed line. */
    private record TargetLine(double millis, String label) {
    }

    private static BufferedImage latencyChart(BenchResult result) {
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = canvas(image);
        try {
            title(g, "Latency percentiles");
            legend(g);
            List<Series> series = latencySeries(result);
            double top = Math.max(series.stream().mapToDouble(s -> s.latencies().p99()).max().orElse(0),
                    Targets.END_TO_END_P99_MS)
                    * 1.1;
            double step = niceStep(top);
            double axisMax = Math.ceil(top / step) * step;
            millisAxis(g, step, axisMax);
            seriesLabels(g, series);
            int groupWidth = (L_RIGHT - L_LEFT) / series.size();
            for (int index = 0; index < series.size(); index++) {
                percentileBars(g, series.get(index), L_LEFT + index * groupWidth, groupWidth, axisMax);
            }
            targetLines(g, axisMax);
            for (int index = 0; index < series.size(); index++) {
                valueLabels(g, series.get(index), L_LEFT + index * groupWidth, groupWidth, axisMax);
            }
        } finally {
            g.dispose();
        }
        return image;
    }

    private static List<Series> latencySeries(BenchResult result) {
        List<Series> series = new ArrayList<>();
        series.add(new Series("201 -> final (e2e)", result.endToEnd().createdToFinal()));
        series.add(new Series("Order API (closed loop)", result.orderApi().latency()));
        series.add(new Series("Replay", result.replays()));
        new TreeMap<>(result.endToEnd().consumerLag())
                .forEach((service, lag) -> series.add(new Series("lag: " + service, lag)));
        return series;
    }

    /** 1, 2, 2.5 or 5 times a power of ten, giving about six ticks up to {@code max}. */
    private static double niceStep(double max) {
        double raw = max / 6;
        double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
        double normalised = raw / magnitude;
        double nice = normalised <= 1 ? 1 : normalised <= 2 ? 2 : normalised <= 2.5 ? 2.5 : normalised <= 5 ? 5 : 10;
        return nice * magnitude;
    }

    private static int millisY(double millis, double axisMax) {
        return L_BOTTOM - (int) Math.round(millis / axisMax * (L_BOTTOM - L_TOP));
    }

    private static void millisAxis(Graphics2D g, double step, double axisMax) {
        g.setFont(SMALL_FONT);
        g.setStroke(THIN);
        for (int tick = 0; tick * step <= axisMax + step / 1000; tick++) {
            int y = millisY(tick * step, axisMax);
            g.setColor(GRID);
            g.drawLine(L_LEFT, y, L_RIGHT, y);
            g.setColor(MUTED);
            rightAligned(g, tickLabel(tick * step), L_LEFT - 8, middleBaseline(g, y));
        }
        g.setColor(AXIS);
        g.drawLine(L_LEFT, L_BOTTOM, L_RIGHT, L_BOTTOM);
        g.drawLine(L_LEFT, L_TOP, L_LEFT, L_BOTTOM);
        g.setFont(LABEL_FONT);
        AffineTransform original = g.getTransform();
        g.rotate(-Math.PI / 2, 24, (L_TOP + L_BOTTOM) / 2.0);
        centred(g, "latency (ms)", 24, (L_TOP + L_BOTTOM) / 2 + 5);
        g.setTransform(original);
    }

    private static String tickLabel(double value) {
        return BigDecimal.valueOf(value).setScale(6, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
    }

    private static void legend(Graphics2D g) {
        g.setFont(SMALL_FONT);
        FontMetrics metrics = g.getFontMetrics();
        int itemWidth = 14 + 6 + metrics.stringWidth("p99") + 24;
        int x = (L_LEFT + L_RIGHT) / 2 - itemWidth * PERCENTILE_NAMES.length / 2;
        for (int index = 0; index < PERCENTILE_NAMES.length; index++) {
            g.setColor(PERCENTILE_COLOURS[index]);
            g.fillRect(x, 58, 14, 14);
            g.setColor(TEXT);
            g.drawString(PERCENTILE_NAMES[index], x + 20, middleBaseline(g, 65));
            x += itemWidth;
        }
    }

    /** The series names under their groups, wrapped, in the largest font (12 down to 9) whose words all fit. */
    private static void seriesLabels(Graphics2D g, List<Series> series) {
        int groupWidth = (L_RIGHT - L_LEFT) / series.size();
        g.setFont(fittingFont(g, series, groupWidth - 8));
        g.setColor(TEXT);
        FontMetrics metrics = g.getFontMetrics();
        for (int index = 0; index < series.size(); index++) {
            int baseline = L_BOTTOM + 8 + metrics.getAscent();
            for (String line : wrap(series.get(index).name(), metrics, groupWidth - 8)) {
                centred(g, line, L_LEFT + index * groupWidth + groupWidth / 2, baseline);
                baseline += metrics.getHeight();
            }
        }
    }

    private static Font fittingFont(Graphics2D g, List<Series> series, int width) {
        Font font = SMALL_FONT;
        while (font.getSize() > 9 && widestWord(g.getFontMetrics(font), series) > width) {
            font = font.deriveFont((float) font.getSize() - 1);
        }
        return font;
    }

    private static int widestWord(FontMetrics metrics, List<Series> series) {
        return series.stream().flatMap(s -> words(s.name()).stream()).mapToInt(metrics::stringWidth).max().orElse(0);
    }

    private static List<String> words(String text) {
        return List.of(text.split(" (?![^(]*\\))"));
    }

    /** Greedy word wrap that keeps a parenthesised part, e.g. "(closed loop)", on one line. */
    private static List<String> wrap(String text, FontMetrics metrics, int width) {
        List<String> lines = new ArrayList<>();
        String line = "";
        for (String word : words(text)) {
            String longer = line.isEmpty() ? word : line + " " + word;
            if (!line.isEmpty() && metrics.stringWidth(longer) > width) {
                lines.add(line);
                line = word;
            } else {
                line = longer;
            }
        }
        lines.add(line);
        return lines;
    }

    private static int barWidth(int groupWidth) {
        return (groupWidth - 2 * groupPadding(groupWidth)) / PERCENTILE_NAMES.length;
    }

    private static int groupPadding(int groupWidth) {
        return Math.max(4, groupWidth / 12);
    }

    private static void percentileBars(Graphics2D g, Series series, int groupLeft, int groupWidth, double axisMax) {
        int width = barWidth(groupWidth);
        double[] values = series.percentiles();
        for (int index = 0; index < values.length; index++) {
            int top = millisY(values[index], axisMax);
            g.setColor(PERCENTILE_COLOURS[index]);
            g.fillRect(groupLeft + groupPadding(groupWidth) + index * width + 1, top, width - 2, L_BOTTOM - top);
        }
    }

    /** Each bar's value above it where the text fits the bar's width; "n/a" for a series without measurements. */
    private static void valueLabels(Graphics2D g, Series series, int groupLeft, int groupWidth, double axisMax) {
        g.setFont(VALUE_FONT);
        FontMetrics metrics = g.getFontMetrics();
        if (series.latencies().count() == 0) {
            onWhite(g, "n/a", groupLeft + (groupWidth - metrics.stringWidth("n/a")) / 2, L_BOTTOM - 6);
            return;
        }
        int width = barWidth(groupWidth);
        double[] values = series.percentiles();
        for (int index = 0; index < values.length; index++) {
            String text = valueLabel(values[index]);
            if (metrics.stringWidth(text) + 6 <= width) {
                int centre = groupLeft + groupPadding(groupWidth) + index * width + width / 2;
                onWhite(g, text, centre - metrics.stringWidth(text) / 2, millisY(values[index], axisMax) - 4);
            }
        }
    }

    private static String valueLabel(double millis) {
        return String.format(Locale.ROOT, millis < 10 ? "%.1f" : "%.0f", millis);
    }

    /** Dashed lines across the plot, their labels in the right margin, pushed apart when the lines are close. */
    private static void targetLines(Graphics2D g, double axisMax) {
        g.setFont(SMALL_FONT);
        FontMetrics metrics = g.getFontMetrics();
        int previousBaseline = Integer.MAX_VALUE;
        for (TargetLine target : LATENCY_TARGETS) {
            int y = millisY(target.millis(), axisMax);
            g.setColor(TARGET);
            g.setStroke(DASHED);
            g.drawLine(L_LEFT, y, L_RIGHT, y);
            g.setStroke(THIN);
            int baseline = Math.min(middleBaseline(g, y), previousBaseline - metrics.getHeight());
            g.drawString(target.label(), L_RIGHT + 8, baseline);
            previousBaseline = baseline;
        }
    }

    private static Graphics2D canvas(BufferedImage image) {
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_FRACTIONALMETRICS, RenderingHints.VALUE_FRACTIONALMETRICS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, image.getWidth(), image.getHeight());
        return g;
    }

    private static void title(Graphics2D g, String title) {
        g.setFont(TITLE_FONT);
        g.setColor(TEXT);
        centred(g, title, WIDTH / 2, 36);
    }

    private static void centred(Graphics2D g, String text, int centre, int baseline) {
        g.drawString(text, centre - g.getFontMetrics().stringWidth(text) / 2, baseline);
    }

    private static void rightAligned(Graphics2D g, String text, int right, int baseline) {
        g.drawString(text, right - g.getFontMetrics().stringWidth(text), baseline);
    }

    /** The baseline that centres the current font's capitals on {@code y}. */
    private static int middleBaseline(Graphics2D g, int y) {
        return y + g.getFontMetrics().getAscent() * 7 / 20;
    }

    /** Dark text on a white box, so that grid and target lines do not run through it. */
    private static void onWhite(Graphics2D g, String text, int left, int baseline) {
        FontMetrics metrics = g.getFontMetrics();
        g.setColor(Color.WHITE);
        g.fillRect(left - 2, baseline - metrics.getAscent(), metrics.stringWidth(text) + 4, metrics.getAscent()
                + metrics.getDescent());
        g.setColor(TEXT);
        g.drawString(text, left, baseline);
    }
}
