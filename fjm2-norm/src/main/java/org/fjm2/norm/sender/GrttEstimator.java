package org.fjm2.norm.sender;

import io.netty.util.collection.IntObjectHashMap;
import org.fjm2.norm.codec.Quantizer;

/**
 * The sender's estimate of the group round-trip time (the largest RTT among receivers), which it advertises in
 * every message and which scales every NORM timer. A larger measurement is taken at once (RFC 5740 section
 * 5.5.1: 0.25 old + 0.75 new), so that receivers never NACK before repairs could have come back.
 * <p>
 * Coming down, the estimate follows each receiver's <em>latest</em> RTT: it falls, at most once per
 * {@link #DECREASE_INTERVAL_NANOS}, to the largest latest RTT among the receivers heard in the last
 * {@code memoryNanos}. One slow sample (a receiver's JIT warm-up, a GC pause, a burst queued in a socket, a process
 * descheduled on a loaded host) therefore costs only until that receiver's next sample. Decaying from the largest
 * sample of recent intervals instead kept a one-off 5 s sample for many seconds when feedback is sparse (a receiver
 * answers a probe every few seconds): every repair, every acknowledgement round and the silence that suspends a dead
 * receiver scale with the GRTT, so one sample stalled a publisher for seconds. A receiver that still measures as
 * much keeps the estimate up, and one that went quiet stops counting after {@code memoryNanos}.
 * <p>
 * Never below one datagram's serialisation time at the current rate. Owned by the session's event loop.
 */
public final class GrttEstimator {

    /** How often the estimate may come down to what the receivers currently measure. */
    static final long DECREASE_INTERVAL_NANOS = 250_000_000L;
    /** Receivers whose latest RTT is remembered (further ones still raise the estimate, but are not tracked). */
    static final int MAX_TRACKED_RECEIVERS = 1024;
    /**
     * A receiver that answered none of this many probes in a row, and was not heard for twice its own RTT, no longer
     * counts: it died or was descheduled, and its last sample (often the slow one) must not hold the estimate, and
     * with it the silence that would suspend it, up for the whole memory.
     */
    static final int UNANSWERED_PROBES = 3;

    private final double min;
    private final double max;
    private final long memoryNanos;
    private final IntObjectHashMap<LatestRtt> latest = new IntObjectHashMap<>();
    private double measured;
    private long lastDecreaseNanos;
    private boolean decreasedOnce;
    private int quantized;
    private double advertised;
    private double floor;
    private boolean raised;
    private long probesSent;

    /** {@code memoryNanos}: how long a receiver's latest RTT counts without a newer one. */
    public GrttEstimator(double initialSeconds, double minSeconds, double maxSeconds, long memoryNanos) {
        this.min = minSeconds;
        this.max = maxSeconds;
        this.memoryNanos = memoryNanos;
        this.measured = initialSeconds;
        update();
    }

    /** Receiver {@code nodeId} measured {@code rtt} seconds, heard at {@code nowNanos}. */
    public void onRtt(int nodeId, double rtt, long nowNanos) {
        if (!(rtt >= 0)) {
            return;
        }
        LatestRtt entry = latest.get(nodeId);
        if (entry == null && (latest.size() < MAX_TRACKED_RECEIVERS || forgetQuiet(nowNanos))) {
            entry = new LatestRtt();
            latest.put(nodeId, entry);
        }
        if (entry != null) {
            entry.rtt = rtt;
            entry.heardNanos = nowNanos;
            entry.probesAtSample = probesSent;
        }
        if (rtt > measured) {
            measured = Math.min(max, 0.25 * measured + 0.75 * rtt);
            raised = true;
            update();
        } else {
            comeDown(nowNanos, rtt);
        }
    }

    /** At most once per interval: down to the largest latest RTT of the receivers that count (never below {@code least}). */
    private void comeDown(long nowNanos, double least) {
        if (decreasedOnce && nowNanos - lastDecreaseNanos < DECREASE_INTERVAL_NANOS) {
            return;
        }
        decreasedOnce = true;
        lastDecreaseNanos = nowNanos;
        double largest = Math.max(largestRecent(nowNanos), least);
        if (largest > 0 && largest < measured) {
            measured = largest;
            update();
        }
    }

    /** The largest latest RTT of the receivers heard within the memory; forgets the others. */
    private double largestRecent(long nowNanos) {
        double largest = 0;
        var it = latest.values().iterator();
        while (it.hasNext()) {
            LatestRtt e = it.next();
            long quiet = nowNanos - e.heardNanos;
            if (quiet > memoryNanos
                    || (probesSent - e.probesAtSample >= UNANSWERED_PROBES && quiet > (long) (2e9 * e.rtt))) {
                it.remove();
            } else if (e.rtt > largest) {
                largest = e.rtt;
            }
        }
        return largest;
    }

    /** Makes room for a new receiver by forgetting the quiet ones; true when some room was made. */
    private boolean forgetQuiet(long nowNanos) {
        largestRecent(nowNanos);
        return latest.size() < MAX_TRACKED_RECEIVERS;
    }

    /**
     * Forgets a receiver that left, was suspended or dropped: its latest RTT no longer holds the estimate up (a
     * receiver killed right after one slow sample would otherwise keep it up, and with it the silence that suspends
     * it, for the whole memory).
     */
    public void forget(int nodeId) {
        latest.remove(nodeId);
    }

    /**
     * A probe went out at {@code nowNanos}: receivers that keep not answering stop counting, and the estimate may come
     * down without waiting for a sample (when only the one receiver that went quiet held it up, none may come).
     */
    public void onProbeSent(long nowNanos) {
        probesSent++;
        comeDown(nowNanos, 0);
    }

    /** Whether the estimate went up since the last call: the sender then probes soon, to confirm or correct it. */
    public boolean takeRaised() {
        boolean r = raised;
        raised = false;
        return r;
    }

    /** The time one datagram takes at the transmit rate: the advertised GRTT never goes below it. */
    public void packetInterval(double seconds) {
        this.floor = seconds;
        update();
    }

    private void update() {
        double value = Math.max(Math.max(measured, min), floor);
        quantized = Quantizer.quantizeRtt(Math.min(value, max));
        advertised = Quantizer.unquantizeRtt(quantized);
    }

    /** The advertised GRTT in seconds (as receivers decode it: quantisation rounds up). */
    public double advertised() {
        return advertised;
    }

    public long advertisedNanos() {
        return (long) (advertised * 1e9);
    }

    public int quantized() {
        return quantized;
    }

    public double measured() {
        return measured;
    }

    /** Receivers whose latest RTT is remembered. */
    int trackedReceivers() {
        return latest.size();
    }

    private static final class LatestRtt {
        double rtt;
        long heardNanos;
        long probesAtSample;
    }
}
