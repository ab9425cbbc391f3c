package org.fjm2.bench.jms;

/**
 * How evenly one subscriber received during a measured window: the longest time without a delivery (from the
 * window's start to the first message, between two messages, from the last message to the window's end) and the
 * fewest messages delivered in any whole {@link #SLICE_NANOS} slice. A mean rate hides stalls: 50,000 msg/s over
 * 5 s may be full speed with one 2-second stall. The delivery thread calls {@link #delivered()}; the controlling
 * thread opens and closes windows (volatile hand-off; the slice counts are only read after the window closed).
 */
public final class DeliveryWindow {

    /** Slice of the window whose delivery count is compared (100 ms). */
    public static final long SLICE_NANOS = 100_000_000L;

    private volatile long[] slices;
    private volatile long startNanos;
    private volatile long lastNanos;
    private volatile long longestGapNanos;

    /** Opens a window of about {@code seconds}, now. */
    public void open(double seconds) {
        long[] counts = new long[(int) Math.ceil(seconds * 1e9 / SLICE_NANOS) + 2];
        long now = System.nanoTime();
        longestGapNanos = 0;
        lastNanos = now;
        startNanos = now;
        slices = counts;
    }

    /** A message arrived (delivery thread). */
    public void delivered() {
        long[] counts = slices;
        if (counts == null) {
            return;
        }
        long now = System.nanoTime();
        long gap = now - lastNanos;
        if (gap > longestGapNanos) {
            longestGapNanos = gap;
        }
        lastNanos = now;
        int slice = (int) ((now - startNanos) / SLICE_NANOS);
        if (slice < counts.length) {
            counts[slice]++;
        }
    }

    /** Closes the window now; returns {longest gap in ms, slowest whole slice in messages/s}. */
    public double[] close() {
        long[] counts = slices;
        slices = null;
        long now = System.nanoTime();
        long gap = Math.max(longestGapNanos, now - lastNanos);
        int whole = (int) ((now - startNanos) / SLICE_NANOS);
        long fewest = Long.MAX_VALUE;
        for (int i = 0; i < Math.min(whole, counts.length); i++) {
            fewest = Math.min(fewest, counts[i]);
        }
        double slowest = fewest == Long.MAX_VALUE ? 0 : fewest * (1e9 / SLICE_NANOS);
        return new double[] {gap / 1e6, slowest};
    }
}
