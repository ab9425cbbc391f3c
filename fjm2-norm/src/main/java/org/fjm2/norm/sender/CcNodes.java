package org.fjm2.norm.sender;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.codec.CommandFlyweight;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.Quantizer;

/**
 * The NORM-CC sender's limiting receivers (RFC 5740 section 5.5.2): slot 0 holds the current limiting receiver
 * (CLR), the other {@link #MAX_NODES} - 1 slots the potential limiting receivers (PLRs) — the receivers with the
 * lowest rates heard. The sender lists them all in its NORM_CMD(CC)
 * probes (the CLR flagged CLR, the others PLR), so they answer every probe at once while the rest of the group
 * suppresses its feedback.
 *
 * <p>Election, as NRL NORM does it: feedback from the CLR itself updates it; feedback from another receiver with a
 * lower rate (or within 10% of it and a longer round trip) makes that receiver the CLR, and the old CLR becomes a
 * PLR candidate. A candidate slot goes to a newcomer when its node went inactive, when the newcomer's round trip
 * is not measured yet (being listed is how it gets measured), or when the newcomer's rate is lower. A node heard from for no {@link #inactiveAfterNanos} is inactive: an inactive
 * CLR releases the rate. A fixed table: no allocation after construction. Owned by the session's event loop.
 */
public final class CcNodes {

    /** Nodes tracked: the CLR and four candidates (NRL NORM keeps five). */
    static final int MAX_NODES = 5;
    /** A CLR's feedback whose rate is within this factor of the CLR's and with a longer round trip takes over. */
    static final double TIE_FACTOR = 1.1;
    /** Feedback silence after which a node is inactive: this many round trips (its own or the GRTT, the larger). */
    static final int INACTIVE_ROUND_TRIPS = 20;
    /** ... but never less than this (loaded hosts answer late). */
    public static final long INACTIVE_MIN_NANOS = 500_000_000L;

    private final int[] ids = new int[MAX_NODES];
    private final boolean[] active = new boolean[MAX_NODES];
    private final boolean[] hasRtt = new boolean[MAX_NODES];
    private final boolean[] start = new boolean[MAX_NODES];
    private final double[] rtt = new double[MAX_NODES];
    private final double[] rttSqrtMean = new double[MAX_NODES];
    private final double[] rttSample = new double[MAX_NODES];
    private final double[] loss = new double[MAX_NODES];
    private final double[] rate = new double[MAX_NODES];
    private final int[] sequence = new int[MAX_NODES];
    private final long[] heardNanos = new long[MAX_NODES];
    private int count;

    /**
     * The round trip to use for {@code nodeId}: smoothed (0.9 old + 0.1 new) when the node is tracked, so that one
     * slow answer does not swing the rate; the sample itself otherwise.
     */
    double smoothedRtt(int nodeId, double sample) {
        int i = indexOf(nodeId);
        if (i < 0) {
            return sample;
        }
        rttSample[i] = sample;
        rttSqrtMean[i] = 0.9 * rttSqrtMean[i] + 0.1 * Math.sqrt(sample);
        rtt[i] = 0.9 * rtt[i] + 0.1 * sample;
        return rtt[i];
    }

    /**
     * Feedback of {@code nodeId}: rate in bytes per second (already recomputed by the sender where the receiver is
     * past slow start), round trip, loss, cc flags and cc_sequence. Returns true when it changed or updated the CLR
     * (the rate is to be adjusted).
     */
    boolean onFeedback(int nodeId, int flags, double rttSeconds, double lossFraction, double bytesPerSecond,
                       int ccSequence, long now) {
        boolean withRtt = (flags & NormWire.CC_FLAG_RTT) != 0;
        boolean slowStart = (flags & NormWire.CC_FLAG_START) != 0;
        if (count == 0 || !active[0]) {
            if (count == 0) {
                count = 1;
            }
            set(0, nodeId, withRtt, slowStart, rttSeconds, lossFraction, bytesPerSecond, ccSequence, now, true);
            removeDuplicate(nodeId);
            return true;
        }
        if (ids[0] == nodeId) {
            if ((short) (ccSequence - sequence[0]) <= 0) {
                return false;   // not newer than what we have from our CLR
            }
            set(0, nodeId, withRtt, slowStart, rtt[0], lossFraction, bytesPerSecond, ccSequence, now, false);
            return true;
        }
        if (bytesPerSecond < rate[0] || (bytesPerSecond < rate[0] * TIE_FACTOR && rttSeconds > rtt[0])) {
            // a new CLR: the old one competes for a candidate slot
            int oldId = ids[0];
            boolean oldRtt = hasRtt[0];
            boolean oldStart = start[0];
            double oldRttValue = rtt[0];
            double oldLoss = loss[0];
            double oldRate = rate[0];
            int oldSequence = sequence[0];
            long oldHeard = heardNanos[0];
            removeDuplicate(nodeId);
            set(0, nodeId, withRtt, slowStart, rttSeconds, lossFraction, bytesPerSecond, ccSequence, now, true);
            candidate(oldId, oldRtt, oldStart, oldRttValue, oldLoss, oldRate, oldSequence, oldHeard);
            return true;
        }
        candidate(nodeId, withRtt, slowStart, rttSeconds, lossFraction, bytesPerSecond, ccSequence, now);
        return false;
    }

    private void candidate(int nodeId, boolean withRtt, boolean slowStart, double rttSeconds, double lossFraction,
                           double bytesPerSecond, int ccSequence, long heard) {
        int slot = indexOf(nodeId);
        if (slot == 0) {
            return;
        }
        if (slot < 0 && count < MAX_NODES) {
            slot = count++;
        } else if (slot < 0) {
            int worst = -1;
            for (int i = 1; i < count; i++) {
                if (worst < 0 || worse(i, worst)) {
                    worst = i;
                }
            }
            boolean replace;
            if (!active[worst] || (!withRtt && hasRtt[worst])) {
                replace = true;         // listing a receiver is how its round trip gets measured
            } else if (withRtt && !hasRtt[worst]) {
                replace = false;
            } else {
                replace = bytesPerSecond < rate[worst];
            }
            if (!replace) {
                return;
            }
            slot = worst;
        }
        set(slot, nodeId, withRtt, slowStart, rttSeconds, lossFraction, bytesPerSecond, ccSequence, heard, true);
    }

    /**
     * Whether candidate {@code a} rather than {@code b} gives its slot up: an inactive one first, then one whose round
     * trip is already measured (an unmeasured one stays listed until it is), then the higher rate.
     */
    private boolean worse(int a, int b) {
        if (active[a] != active[b]) {
            return !active[a];
        }
        if (hasRtt[a] != hasRtt[b]) {
            return hasRtt[a];
        }
        return rate[a] > rate[b];
    }

    private void set(int i, int nodeId, boolean withRtt, boolean slowStart, double rttSeconds, double lossFraction,
                     double bytesPerSecond, int ccSequence, long now, boolean resetRtt) {
        ids[i] = nodeId;
        hasRtt[i] = withRtt;
        start[i] = slowStart;
        if (resetRtt) {
            rtt[i] = rttSeconds;
            rttSample[i] = rttSeconds;
            rttSqrtMean[i] = Math.sqrt(rttSeconds);
        }
        loss[i] = lossFraction;
        rate[i] = bytesPerSecond;
        sequence[i] = ccSequence;
        heardNanos[i] = now;
        active[i] = true;
    }

    private void removeDuplicate(int nodeId) {
        for (int i = 1; i < count; i++) {
            if (ids[i] == nodeId) {
                count--;
                copy(count, i);
                return;
            }
        }
    }

    private void copy(int from, int to) {
        ids[to] = ids[from];
        active[to] = active[from];
        hasRtt[to] = hasRtt[from];
        start[to] = start[from];
        rtt[to] = rtt[from];
        rttSqrtMean[to] = rttSqrtMean[from];
        rttSample[to] = rttSample[from];
        loss[to] = loss[from];
        rate[to] = rate[from];
        sequence[to] = sequence[from];
        heardNanos[to] = heardNanos[from];
    }

    private int indexOf(int nodeId) {
        for (int i = 0; i < count; i++) {
            if (ids[i] == nodeId) {
                return i;
            }
        }
        return -1;
    }

    /** Marks nodes silent for too long inactive ({@code grttSeconds}: the sender's GRTT). */
    void expire(long now, double grttSeconds) {
        for (int i = 0; i < count; i++) {
            if (!active[i]) {
                continue;
            }
            long silence = Math.max(INACTIVE_MIN_NANOS,
                    (long) (INACTIVE_ROUND_TRIPS * Math.max(grttSeconds, rtt[i]) * 1e9));
            if (now - heardNanos[i] > silence) {
                active[i] = false;
            }
        }
    }

    boolean hasClr() {
        return count > 0 && active[0];
    }

    int clrId() {
        return ids[0];
    }

    double clrRate() {
        return rate[0];
    }

    double clrRtt() {
        return rtt[0];
    }

    double clrLoss() {
        return loss[0];
    }

    /** Whether the CLR is still in slow start (its feedback says START): the sender follows its doubling. */
    boolean clrInSlowStart() {
        return start[0];
    }

    /** The CLR's last round trip over its mean (the ratio of the square roots), which damps oscillation. */
    double clrRttDamper() {
        double sample = rttSample[0];
        return sample > 0 ? rttSqrtMean[0] / Math.sqrt(sample) : 1.0;
    }

    /** Nodes listed (active ones). */
    int activeCount() {
        int n = 0;
        for (int i = 0; i < count; i++) {
            if (active[i]) {
                n++;
            }
        }
        return n;
    }

    /**
     * Writes the active nodes as a CC node list at {@code index} (8 bytes each: node id, flags, rtt, rate);
     * {@code slowStart} adds START to every entry's flags. Returns the bytes written.
     */
    int write(ByteBuf buf, int index, boolean slowStart) {
        int at = index;
        for (int i = 0; i < count; i++) {
            if (!active[i]) {
                continue;
            }
            int flags = (i == 0 ? NormWire.CC_FLAG_CLR : NormWire.CC_FLAG_PLR) | NormWire.CC_FLAG_RTT
                    | (slowStart ? NormWire.CC_FLAG_START : 0);
            buf.setInt(at, ids[i]);
            buf.setByte(at + 4, flags);
            buf.setByte(at + 5, Quantizer.quantizeRtt(rtt[i]));
            buf.setShort(at + 6, Quantizer.quantizeRate(rate[i]));
            at += CommandFlyweight.CC_NODE_LENGTH;
        }
        return at - index;
    }
}
