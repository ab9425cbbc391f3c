package org.fjm2.norm.sender;

/**
 * A rate found by searching upwards, below the configured rate (the ceiling): slow start begins at
 * {@link #START_BITS_PER_SECOND} and doubles the rate every round trip while receivers report progress; the first
 * NACK that comes while losses are heavy — repairs above {@link #CONGESTION_REPAIR_FRACTION} of what was sent in the
 * last measured interval — ends slow start and multiplies the rate by {@link #DECREASE} (once per two GRTTs, since
 * one overrun makes many NACKs); from then on the rate grows by {@link #INCREASE_FRACTION} of the ceiling per round
 * trip of progress. It never goes below {@link #FLOOR_FRACTION} of the ceiling. Lighter loss does not count: a link
 * that loses packets at random loses them at any rate, and backing off there only slows the repairs (every NACK
 * would otherwise take 30% off the rate, and 10% loss drove it to the floor).
 *
 * <p>With receiver-paced flow control ({@link FlowWindow}) receivers are not overrun whatever the rate, so on a LAN
 * the search ends at the ceiling within a few round trips and the windows pace the sender; NACKs of receivers that
 * report their windows do not slow it ({@link #onPacedReceiverLoss}), those of other receivers (NRL NORM) do when
 * heavy. It is not TCP-friendly congestion control (NORM-CC is); it is the default for JMS because it needs no rate
 * to be known.
 * Owned by the session's event loop.
 */
public final class AutoRateController extends PacedRateController {

    /** Rate slow start begins at (or the ceiling, when lower). */
    static final long START_BITS_PER_SECOND = 20_000_000L;
    /** Factor applied to the rate on a loss. */
    static final double DECREASE = 0.7;
    /** Share of the ceiling added per round trip of progress after slow start. */
    static final double INCREASE_FRACTION = 1.0 / 128;
    /** Lowest rate, as a share of the ceiling. */
    static final double FLOOR_FRACTION = 1.0 / 1024;
    /**
     * Repairs, as a share of the bytes sent in the last interval, above which NACKs mean the path is overrun: slow
     * start overshooting a bottleneck twofold loses half of what it sends. Random loss costs its union over the
     * receivers in repairs — three receivers losing 10% each independently, 27% — and must not count: the rate would
     * sink for nothing (it drove a test with that loss from 100 to 20 Mbit/s). So this controller bounds an overshoot
     * to about 1.7 times a bottleneck on the way; congestion control proper (sharing a link fairly) is NORM-CC's job.
     */
    static final double CONGESTION_REPAIR_FRACTION = 0.4;
    /** Least length of an interval over which the repair share is measured (or four GRTTs, whichever is longer). */
    static final long MEASURE_INTERVAL_NANOS = 10_000_000L;
    /** Shortest step between two increases: the GRTT, but at least this (loopback round trips are microseconds). */
    static final long MIN_STEP_NANOS = 1_000_000L;
    /**
     * Longest step between two increases, whatever the GRTT: on a loaded host the GRTT climbs to a hundred
     * milliseconds and more, and doubling only that often kept a publisher's burst near the start rate for seconds
     * (`bench latency --quick`: p99 408 ms). At most 5 ms, the ceiling is reached within about 50 ms.
     */
    static final long MAX_STEP_NANOS = 5_000_000L;

    private final long ceiling;
    private double rate;
    private boolean slowStart = true;
    private boolean stepped;
    private long lastStepNanos;
    private final LossBackoff backoff;
    private long intervalStart;
    private long intervalBytes;
    private long intervalRepairBytes;
    private double repairFraction;
    private long grttNanos = MIN_STEP_NANOS;

    public AutoRateController(long ceilingBitsPerSecond) {
        super(Math.min(ceilingBitsPerSecond, START_BITS_PER_SECOND));
        this.ceiling = ceilingBitsPerSecond;
        this.backoff = new LossBackoff(DECREASE, Math.max(8_000L, (long) (ceilingBitsPerSecond * FLOOR_FRACTION)));
        this.rate = pacer.rate();
    }

    @Override
    void afterSent(int bytes, long now) {
        intervalBytes += bytes;
        long interval = Math.max(MEASURE_INTERVAL_NANOS, 4 * grttNanos);
        if (now - intervalStart >= interval) {
            repairFraction = intervalBytes == 0 ? 0 : (double) intervalRepairBytes / intervalBytes;
            intervalStart = now;
            intervalBytes = 0;
            intervalRepairBytes = 0;
        }
    }

    @Override
    public void onRepairSent(int bytes) {
        intervalRepairBytes += bytes;
    }

    @Override
    public void onProgress(long now, long grttNanos) {
        this.grttNanos = Math.max(MIN_STEP_NANOS, grttNanos);
        if (rate >= ceiling) {
            return;
        }
        if (stepped && now - lastStepNanos < Math.min(MAX_STEP_NANOS, Math.max(grttNanos, MIN_STEP_NANOS))) {
            return;
        }
        stepped = true;
        lastStepNanos = now;
        rate = Math.min(ceiling, slowStart ? rate * 2 : rate + ceiling * INCREASE_FRACTION);
        pacer.rate((long) rate);
    }

    @Override
    public void onRoundAcknowledged(long now) {
        onProgress(now, 0);
    }

    /**
     * Losses at receivers that report their windows are not a rate signal here: their sockets cannot overflow, so on
     * the LANs this controller is meant for the losses are random (a lossy link), and slowing down only delays the
     * repairs. A slower link on the way calls for NORM-CC or a {@code rate} set to it.
     */
    @Override
    public void onPacedReceiverLoss(long now, long grttNanos) {
    }

    @Override
    public void onLoss(long now, long grttNanos) {
        if (repairFraction < CONGESTION_REPAIR_FRACTION) {
            return;     // light loss: not the path overrun
        }
        slowStart = false;
        rate = backoff.afterLoss(rate, now, grttNanos);
        pacer.rate((long) rate);
    }

    /** Whether the search is still doubling (no loss seen yet). */
    boolean inSlowStart() {
        return slowStart;
    }
}
