package org.fjm2.norm.sender;

import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.protocol.TcpFriendlyRate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * NORM-CC congestion control (RFC 5740 section 5.5), TCP-friendly and interoperable with NRL NORM's: receivers report
 * their loss event fraction, round trip and rate in EXT_CC_FEEDBACK; the sender elects the receiver with the lowest
 * rate its limiting receiver (CLR, {@link CcNodes}), recomputes that rate with the TCP equation from the loss it
 * reports and the round trip the sender measured itself ({@link TcpFriendlyRate}), and sends at it:
 * <ul>
 *   <li><b>Slow start</b> from {@link #START_BITS_PER_SECOND} while the CLR reports no loss (flag START): the CLR
 *   reports twice what it receives and the rate follows, at most doubling (and at most halving) per feedback — once per round trip, since
 *   probes go out once per CLR round trip ({@link #probeIntervalNanos}).</li>
 *   <li><b>Steady state</b>: the CLR's rate; a rise at most doubles the rate per feedback; the rate is damped by the
 *   CLR's last round trip over its mean (between 0.5x and 2x), against oscillation as a queue fills and drains.</li>
 *   <li><b>No feedback</b>: without an active CLR (none heard, or the CLR silent for {@link CcNodes#INACTIVE_ROUND_TRIPS}
 *   round trips, at least half a second) for longer than {@link #NO_CLR_GRACE_NANOS}, the rate halves at every
 *   probe.</li>
 *   <li><b>Application-limited</b>: a sender that sent no data for {@link #IDLE_NANOS} (or four datagrams' time)
 *   does not raise its rate (a rate it never used says nothing about the path).</li>
 *   <li><b>Bounds</b>: never above the configured rate (the ceiling) nor below {@link #MIN_BITS_PER_SECOND} (or the
 *   ceiling when lower). Whatever a receiver claims — 100% loss, a rate of one byte per second — the sender does not
 *   go below that floor; a receiver that stops answering is no longer CLR after its inactivity time, and the rate
 *   then climbs back by slow start from whoever answers.</li>
 * </ul>
 * NACKs are not a rate signal here (the receivers' loss fractions are); receiver-paced flow control still applies on
 * top ({@link FlowWindow}): this rate is a ceiling the windows may hold the sender below. Owned by the session's
 * event loop.
 */
public final class CcRateController extends PacedRateController {

    private static final Logger LOG = LoggerFactory.getLogger(CcRateController.class);

    /** Rate slow start begins at (or the ceiling, when lower). */
    static final long START_BITS_PER_SECOND = 1_000_000L;
    /** The floor: the lowest rate NORM-CC may choose (or the ceiling, when lower). */
    public static final long MIN_BITS_PER_SECOND = 100_000L;
    /**
     * How long the sender may be without an active CLR before the rate halves at every probe: the first answers of
     * a group take a round trip and a back-off.
     */
    static final long NO_CLR_GRACE_NANOS = 500_000_000L;
    /**
     * A sender that sent nothing for this long (or four datagrams' time at its rate, if longer) is
     * application-limited: its rate does not rise.
     */
    static final long IDLE_NANOS = 100_000_000L;
    /**
     * How far a cc_sequence may run ahead of our last probe's: receivers that report a loss event between probes
     * send the next sequence (NRL NORM does so once per event; events are at least a round trip apart).
     */
    static final int SEQUENCE_LEAD_MAX = 64;
    /** How far a cc_sequence may lag behind our last probe's: late answers (probes go out once per round trip). */
    static final int SEQUENCE_LAG_MAX = 4096;
    /** Shortest interval between two probes under NORM-CC, whatever the CLR's round trip (LAN round trips are us). */
    static final long PROBE_INTERVAL_MIN_NANOS = 5_000_000L;
    /** Longest interval between two probes under NORM-CC (one per CLR round trip, but at least this often). */
    static final long PROBE_INTERVAL_MAX_NANOS = 1_000_000_000L;

    private final CcNodes nodes = new CcNodes();
    private final double ceiling;
    private final double floor;
    private double rate;
    private double nominalSize;
    private long lastSentNanos;
    private boolean sentAny;
    private boolean clrMissing = true;
    private long clrMissingSince;
    private boolean probed;
    private int lastProbeSequence;

    public CcRateController(long ceilingBitsPerSecond, int segmentSize) {
        super(Math.min(ceilingBitsPerSecond, START_BITS_PER_SECOND));
        this.ceiling = ceilingBitsPerSecond;
        this.floor = Math.min(ceilingBitsPerSecond, MIN_BITS_PER_SECOND);
        this.rate = pacer.rate();
        this.nominalSize = segmentSize;
    }

    @Override
    void afterSent(int bytes, long now) {
        if (!sentAny) {
            sentAny = true;
            clrMissingSince = now;
        }
        lastSentNanos = now;
        nominalSize += 0.01 * (bytes - nominalSize);
    }

    /**
     * CC feedback of {@code nodeId}: cc_flags, the round trip (measured by us from its grtt_response, or the one it
     * reports), its loss event fraction, its reported rate in bytes per second, its cc_sequence. Values were checked
     * by the caller.
     */
    @Override
    public boolean onCcFeedback(int nodeId, int flags, double rttSeconds, double loss, double reportedBytesPerSecond,
                                int ccSequence, long now) {
        int lead = (short) (ccSequence - lastProbeSequence);
        if (!probed || lead > SEQUENCE_LEAD_MAX || lead < -SEQUENCE_LAG_MAX) {
            return false;       // no probe of ours carried this sequence, nor will one soon
        }
        double rtt = nodes.smoothedRtt(nodeId, rttSeconds);
        double bytesPerSecond = (flags & NormWire.CC_FLAG_START) != 0 ? reportedBytesPerSecond
                : TcpFriendlyRate.bytesPerSecond(nominalSize, rtt, loss);
        if (LOG.isTraceEnabled()) {
            LOG.trace("cc feedback from {}: flags {} rtt {} ms loss {} rate {} kbit/s (reported {}), seq {}; CLR {}",
                    Integer.toUnsignedString(nodeId), flags, rtt * 1e3, loss, bytesPerSecond * 8e-3,
                    reportedBytesPerSecond * 8e-3, ccSequence, Integer.toUnsignedString(nodes.clrId()));
        }
        if (nodes.onFeedback(nodeId, flags, rtt, loss, bytesPerSecond, ccSequence, now)) {
            clrMissing = false;
            followClr(now);
        }
        return true;
    }

    private void followClr(long now) {
        double current = rate / 8;
        double clr = nodes.clrRate();
        double target;
        if (nodes.clrInSlowStart()) {
            // follow the CLR's doubling; a lower report in slow start (no loss yet) is a measurement taken over
            // too few datagrams, or a receiver that just joined: at most halve on it
            target = Math.max(current / 2, Math.min(clr, 2 * current));
        } else {
            target = clr > current ? Math.min(clr, 2 * current) : clr;
            target *= Math.max(0.5, Math.min(2.0, nodes.clrRttDamper()));
        }
        long idle = Math.max(IDLE_NANOS, (long) (4 * nominalSize * 8e9 / rate));
        if (target > current && (!sentAny || now - lastSentNanos > idle)) {
            return;     // application-limited: an unused rate is no evidence
        }
        apply(target * 8);
    }

    /** A probe goes out: silent nodes become inactive, and without a CLR the rate comes down. */
    @Override
    public void onProbeSent(long now, double grttSeconds, int ccSequence) {
        probed = true;
        lastProbeSequence = ccSequence;
        nodes.expire(now, grttSeconds);
        if (nodes.hasClr()) {
            return;
        }
        if (!clrMissing) {
            clrMissing = true;
            clrMissingSince = now;
        }
        if (sentAny && now - clrMissingSince > NO_CLR_GRACE_NANOS) {
            apply(rate / 2);
        }
    }

    private void apply(double bitsPerSecond) {
        double bounded = Math.max(floor, Math.min(ceiling, bitsPerSecond));
        if (!(bounded > 0)) {
            return;
        }
        if (LOG.isTraceEnabled() && bounded != rate) {
            LOG.trace("cc rate {} -> {} kbit/s", (long) (rate / 1e3), (long) (bounded / 1e3));
        }
        rate = bounded;
        pacer.rate((long) rate);
    }

    /** One probe per CLR round trip (the GRTT while there is none), within the NORM-CC probe interval bounds. */
    @Override
    public long probeIntervalNanos(long scheduledNanos, long grttNanos) {
        long interval = nodes.hasClr() ? Math.min(grttNanos, (long) (nodes.clrRtt() * 1e9)) : grttNanos;
        return Math.max(PROBE_INTERVAL_MIN_NANOS, Math.min(PROBE_INTERVAL_MAX_NANOS, interval));
    }

    @Override
    public CcNodes ccNodes() {
        return nodes;
    }

    /** Whether the sender is in slow start: its CLR reports no loss yet (or there is no CLR). */
    @Override
    public boolean ccSlowStart() {
        return !nodes.hasClr() || nodes.clrInSlowStart();
    }

    /** The lowest rate this controller chooses, bits per second. */
    public long floorBitsPerSecond() {
        return (long) floor;
    }
}
