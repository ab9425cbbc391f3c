package org.fjm2.norm.protocol;

/**
 * The TCP throughput equation NORM-CC uses (RFC 5740 section 5.5.3, from TFMCC / RFC 5348 with one packet per
 * acknowledgement and a retransmission timeout of four round trips):
 *
 * <pre>
 *                                   s
 *   X = -----------------------------------------------------------
 *       R * ( sqrt(2p/3) + 12 * sqrt(3p/8) * p * (1 + 32 p^2) )
 * </pre>
 *
 * with X in bytes per second, s the nominal packet size in bytes, R the round-trip time in seconds and p the loss
 * event fraction. Both ends use it: a receiver to report its rate, the sender to recompute the rate of its limiting
 * receiver from the loss it reports and the round trip the sender measured itself.
 */
public final class TcpFriendlyRate {

    private TcpFriendlyRate() {
    }

    /**
     * Bytes per second for packets of {@code packetBytes}, a round trip of {@code rttSeconds} and a loss event
     * fraction {@code loss}; {@link Double#POSITIVE_INFINITY} without loss (the equation sets no bound then), and for
     * a non-positive round trip.
     */
    public static double bytesPerSecond(double packetBytes, double rttSeconds, double loss) {
        if (!(loss > 0) || !(rttSeconds > 0)) {
            return Double.POSITIVE_INFINITY;
        }
        double p = Math.min(loss, 1.0);
        double denominator = rttSeconds * (Math.sqrt(2.0 * p / 3.0)
                + 12.0 * Math.sqrt(3.0 * p / 8.0) * p * (1.0 + 32.0 * p * p));
        return packetBytes / denominator;
    }

    /**
     * The loss event fraction at which the equation gives {@code bytesPerSecond} — RFC 5348 section 6.3.1's way of
     * seeding the loss history at the first loss, so that the rate goes on from what was received instead of
     * collapsing to one interval's worth. Found by bisection (the equation is monotonic in p), at most 1.
     */
    public static double lossFor(double packetBytes, double rttSeconds, double bytesPerSecond) {
        if (!(bytesPerSecond > 0) || !(rttSeconds > 0)) {
            return 1.0;
        }
        double low = 1e-9;
        double high = 1.0;
        if (TcpFriendlyRate.bytesPerSecond(packetBytes, rttSeconds, low) <= bytesPerSecond) {
            return low;
        }
        if (TcpFriendlyRate.bytesPerSecond(packetBytes, rttSeconds, high) >= bytesPerSecond) {
            return high;
        }
        for (int i = 0; i < 60; i++) {
            double mid = Math.sqrt(low * high);     // bisect on a log scale: p spans nine decades
            if (TcpFriendlyRate.bytesPerSecond(packetBytes, rttSeconds, mid) > bytesPerSecond) {
                low = mid;
            } else {
                high = mid;
            }
        }
        return high;
    }
}
