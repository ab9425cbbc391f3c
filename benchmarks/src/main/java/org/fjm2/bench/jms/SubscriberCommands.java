package org.fjm2.bench.jms;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The command loop of a throughput subscribers' JVM ({@link ThroughputSubscribersMain} for JMS,
 * {@code AeronSubscribersMain} for Aeron): N subscribers, each with its {@link SequenceCheck} and
 * {@link DeliveryWindow} that its delivery thread updates, and commands read from standard input:
 * <ul>
 *   <li>{@code MARK}: starts a measured window once every subscriber has received a message since the previous
 *       drain (traffic flows: a window never starts while a subscriber is still joining), or after
 *       {@link #FLOW_TIMEOUT_NANOS}; answers MARKED.</li>
 *   <li>{@code MARK seconds}: as above, for a window of about that many seconds.</li>
 *   <li>{@code STOP}: ends it; answers {@code RATES r1 r2 ...}, messages/s received by each subscriber in the
 *       window (its own clock: the receivers' steady-state rate, not the publisher's), then {@code WINDOWS gapMs
 *       slowest}: the longest time any subscriber went without a delivery in the window (ms) and the fewest
 *       messages any subscriber received in a whole 100 ms slice of it, as messages/s ({@link DeliveryWindow}).</li>
 *   <li>{@code DRAIN last}: waits until every subscriber has message {@code last}, or until nothing arrives for
 *       {@link #DRAIN_IDLE_NANOS}; answers {@code DRAINED gaps duplicates missing} summed over subscribers since the
 *       previous DRAIN (missing: numbers up to {@code last} never seen at the end), then the transport's own
 *       counters, if any (a line of name=value pairs from the counters supplier).</li>
 * </ul>
 * End of input ends {@link #serve}.
 */
public final class SubscriberCommands {

    /**
     * A drain ends when no subscriber received anything for this long (a stall or a lost tail): longer than FJM2's
     * default maxHold (10 s, how long a sender waits for slow receivers' acknowledgements), so that a receiver that
     * stalls and then recovers is not counted as having lost its backlog.
     */
    public static final long DRAIN_IDLE_NANOS = 12_000_000_000L;

    /** Longest wait in MARK for every subscriber to receive something. */
    static final long FLOW_TIMEOUT_NANOS = 30_000_000_000L;

    private final List<SequenceCheck> checks = new ArrayList<>();
    private final List<DeliveryWindow> windows = new ArrayList<>();
    private final Supplier<String> counters;
    private final long[] drained;
    private final long[] marked;
    private long markedAt;
    private long gapsBefore;
    private long duplicatesBefore;

    /** N subscribers; {@code counters} says what the transport counted (may be ""). */
    public SubscriberCommands(int n, Supplier<String> counters) {
        for (int i = 0; i < n; i++) {
            checks.add(new SequenceCheck());
            windows.add(new DeliveryWindow());
        }
        this.counters = counters;
        marked = new long[n];
        drained = new long[n];
    }

    /** Subscriber {@code i}'s sequence check (its delivery thread records into it). */
    public SequenceCheck check(int i) {
        return checks.get(i);
    }

    /** Subscriber {@code i}'s delivery window (its delivery thread calls {@link DeliveryWindow#delivered()}). */
    public DeliveryWindow window(int i) {
        return windows.get(i);
    }

    /** Answers commands until the end of {@code in}. */
    public void serve(BufferedReader in) throws IOException, InterruptedException {
        String line;
        while ((line = in.readLine()) != null) {
            String[] words = line.trim().split("\\s+");
            switch (words[0]) {
                case "MARK" -> {
                    awaitFlow();
                    double windowSeconds = words.length > 1 ? Double.parseDouble(words[1]) : 60;
                    markedAt = System.nanoTime();
                    for (int i = 0; i < marked.length; i++) {
                        marked[i] = checks.get(i).received();
                        windows.get(i).open(windowSeconds);
                    }
                    System.out.println("MARKED");
                }
                case "STOP" -> {
                    double seconds = (System.nanoTime() - markedAt) / 1e9;
                    StringBuilder sb = new StringBuilder("RATES");
                    for (int i = 0; i < marked.length; i++) {
                        sb.append(String.format(Locale.ROOT, " %.1f", (checks.get(i).received() - marked[i]) / seconds));
                    }
                    double longestGapMs = 0;
                    double slowest = Double.MAX_VALUE;
                    for (DeliveryWindow w : windows) {
                        double[] evenness = w.close();
                        longestGapMs = Math.max(longestGapMs, evenness[0]);
                        slowest = Math.min(slowest, evenness[1]);
                    }
                    System.out.println(sb);
                    System.out.println(String.format(Locale.ROOT, "WINDOWS %.1f %.1f", longestGapMs, slowest));
                }
                case "DRAIN" -> System.out.println(drain(Long.parseLong(words[1])));
                default -> System.out.println("FAIL unknown command " + line);
            }
        }
    }

    private void awaitFlow() throws InterruptedException {
        long deadline = System.nanoTime() + FLOW_TIMEOUT_NANOS;
        for (int i = 0; i < drained.length; i++) {
            while (checks.get(i).received() == drained[i] && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
        }
    }

    private String drain(long last) throws InterruptedException {
        long lastTotal = -1;
        long lastProgress = System.nanoTime();
        while (!checks.stream().allMatch(c -> c.next() > last)) {
            long total = checks.stream().mapToLong(SequenceCheck::received).sum();
            if (total != lastTotal) {
                lastTotal = total;
                lastProgress = System.nanoTime();
            } else if (System.nanoTime() - lastProgress > DRAIN_IDLE_NANOS) {
                break;
            }
            Thread.sleep(5);
        }
        long gaps = checks.stream().mapToLong(SequenceCheck::gaps).sum();
        long duplicates = checks.stream().mapToLong(SequenceCheck::duplicates).sum();
        long missing = checks.stream().mapToLong(c -> Math.max(0, last + 1 - c.next())).sum();
        String answer = "DRAINED " + (gaps - gapsBefore) + " " + (duplicates - duplicatesBefore) + " " + missing
                + " " + counters.get();
        for (int i = 0; i < drained.length; i++) {
            drained[i] = checks.get(i).received();
        }
        gapsBefore = gaps;
        duplicatesBefore = duplicates;
        return answer;
    }
}
