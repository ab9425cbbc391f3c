package org.fjm2.norm.sender;

import org.fjm2.norm.codec.Quantizer;

/**
 * The sender's estimate of the group round-trip time (the largest RTT among receivers), which it advertises in
 * every message and which scales every NORM timer. A larger measurement is taken at once (RFC 5740 section
 * 5.5.1: 0.25 old + 0.75 new); the estimate comes down only at probe intervals, to the largest RTT heard in
 * the interval but by at most a factor of four per interval (so one slow outlier, such as a receiver's JIT warm-up,
 * costs a few probe intervals, not minutes). Never below one datagram's serialisation time at the current rate.
 */
public final class GrttEstimator {

    private final double min;
    private final double max;
    private double measured;
    private double peak;
    private boolean heardResponse;
    private int quantized;
    private double advertised;
    private double floor;

    public GrttEstimator(double initialSeconds, double minSeconds, double maxSeconds) {
        this.min = minSeconds;
        this.max = maxSeconds;
        this.measured = initialSeconds;
        update();
    }

    /** A receiver's RTT measurement, in seconds. */
    public void onRtt(double rtt) {
        if (!(rtt >= 0)) {
            return;
        }
        if (org.slf4j.LoggerFactory.getLogger(GrttEstimator.class).isDebugEnabled()) {
            org.slf4j.LoggerFactory.getLogger(GrttEstimator.class).debug("rtt sample {} ms (grtt {} ms)", rtt * 1e3, advertised * 1e3);
        }
        heardResponse = true;
        if (rtt > measured) {
            measured = Math.min(max, 0.25 * measured + 0.75 * rtt);
            peak = measured;
            update();
        } else if (rtt > peak) {
            peak = rtt;
        }
    }

    /** Called at each probe: lets the estimate decrease towards the interval's peak. */
    public void onProbeInterval() {
        if (heardResponse && peak < measured) {
            measured = Math.max(peak, 0.25 * measured);
            update();
        }
        heardResponse = false;
        peak = 0;
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
