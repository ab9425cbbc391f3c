package org.fjm2.norm.sender;

import org.fjm2.norm.codec.Quantizer;

/**
 * The sender's estimate of the group round-trip time (the largest RTT among receivers), which it advertises in
 * every message and which scales every NORM timer. A larger measurement is taken at once (RFC 5740 section
 * 5.5.1: 0.25 old + 0.75 new), so that receivers never NACK before repairs could have come back. It comes down
 * every {@link #DECREASE_INTERVAL_NANOS}, to the largest RTT heard in that interval but by at most half, so one slow
 * outlier (a receiver's JIT warm-up, a GC pause, a burst queued in a socket) costs a second or so of too-long timers
 * instead of minutes: an inflated GRTT slows every repair and every acknowledgement round. Coming down by at most
 * half keeps it above the spread of a loaded host's samples (following each receiver's latest sample instead
 * advertised 2 ms between samples of 50 ms, and rounds ran out before repairs came back).
 * <p>
 * An interval ends at a sample or at a probe: when the only slow receiver died, no sample may come to end it, and the
 * estimate (with the silence that suspends that receiver, 8 GRTTs) stayed up for seconds. Never below one datagram's
 * serialisation time at the current rate. Owned by the session's event loop.
 */
public final class GrttEstimator {

    /** How often the estimate may come down to what the receivers currently measure. */
    static final long DECREASE_INTERVAL_NANOS = 250_000_000L;

    private final double min;
    private final double max;
    private double measured;
    private double peak;
    private boolean heardResponse;
    private long intervalStartNanos;
    private boolean intervalStarted;
    private int quantized;
    private double advertised;
    private double floor;
    private boolean raised;

    public GrttEstimator(double initialSeconds, double minSeconds, double maxSeconds) {
        this.min = minSeconds;
        this.max = maxSeconds;
        this.measured = initialSeconds;
        update();
    }

    /** A receiver's RTT measurement, in seconds, taken at {@code nowNanos}. */
    public void onRtt(double rtt, long nowNanos) {
        if (!(rtt >= 0)) {
            return;
        }
        if (!intervalStarted) {
            intervalStarted = true;
            intervalStartNanos = nowNanos;
        }
        heardResponse = true;
        if (rtt > measured) {
            measured = Math.min(max, 0.25 * measured + 0.75 * rtt);
            raised = true;
            update();
        }
        peak = Math.max(peak, rtt);
        if (nowNanos - intervalStartNanos >= DECREASE_INTERVAL_NANOS) {
            endInterval(nowNanos);
        }
    }

    /** Lets the estimate come down towards the interval's peak (at most halving), and starts a new interval. */
    private void endInterval(long nowNanos) {
        if (heardResponse && peak < measured) {
            measured = Math.max(peak, 0.5 * measured);
            update();
        }
        heardResponse = false;
        peak = 0;
        intervalStartNanos = nowNanos;
    }

    /** A probe went out at {@code nowNanos}: the interval ends here if it is due, sample or not. */
    public void onProbeSent(long nowNanos) {
        if (intervalStarted && nowNanos - intervalStartNanos >= DECREASE_INTERVAL_NANOS) {
            endInterval(nowNanos);
        }
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
}
