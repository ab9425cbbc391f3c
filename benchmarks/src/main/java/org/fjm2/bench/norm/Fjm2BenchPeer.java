package org.fjm2.bench.norm;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.fjm2.norm.NormSession;
import org.fjm2.norm.api.LossReason;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormListener;
import org.fjm2.norm.api.RemoteSenderInfo;

/**
 * fjm2-norm throughput peer for {@code fjm2 bench norm}, run as a child JVM so that it competes for the CPU like the
 * NRL peer processes do. Same command line and output as {@code benchmarks/src/main/native/nrlbench.cpp}: a sender
 * enqueues objects of one size as fast as the engine accepts them, a receiver counts completed objects, and both
 * print {@code STAT t=<seconds> objects=<n> bytes=<n> aborted=<n>} every {@code --report} seconds (and the
 * engine's counters, {@code COUNTERS name=value ...}, at the end).
 */
public final class Fjm2BenchPeer {

    /** Seed of the NACK back-off randomness (printed at start). */
    static final long SEED = 0x5EEDL;
    /** How long the sender blocks in enqueue before it reports and tries again. */
    static final long ENQUEUE_WAIT_MS = 50;
    /** Priority of every object (any value: one class of traffic). */
    static final int PRIORITY = 4;

    private Fjm2BenchPeer() {
    }

    public static void main(String[] args) throws Exception {
        PeerOptions o = PeerOptions.parse(args);
        NormConfig.Builder builder = NormConfig.builder(o.text("--addr", "239.255.89.1"), o.integer("--port", 6003))
                .interfaceName(o.text("--iface", "lo"))
                .nodeId(o.integer("--id", 1))
                .transport(o.text("--transport", "auto"))
                .txRate((long) o.real("--rate", 2e9))
                .segmentSize(o.integer("--segment", 1400))
                .blockSize(o.integer("--block", 64))
                .parity(o.integer("--parity", 0))
                .grttInitial(Duration.ofNanos((long) (o.real("--grtt", 0.001) * 1e9)))
                .robustFactor(o.integer("--robust", NormConfig.DEFAULT_ROBUST_FACTOR))
                .receiveBuffer(o.integer("--socket-buffer", 8 << 20))
                .sendBuffer(o.integer("--socket-buffer", 8 << 20))
                .maxObjectSize(Math.max(NormConfig.DEFAULT_MAX_OBJECT_SIZE, o.integer("--size", 0)));
        if (o.integer("--cc", 0) != 0) {
            builder.rateControl(NormConfig.RateControl.CC);   // --rate is then the ceiling (nrlbench: --rate-max)
            builder.txRate((long) o.real("--rate-max", o.real("--rate", 2e9)));
        }
        NormConfig config = builder.build();
        double seconds = o.real("--seconds", 10);
        long reportNanos = (long) (o.real("--report", 0.1) * 1e9);
        if (o.send) {
            runSender(config, o.integer("--size", 8192), seconds, reportNanos);
        } else {
            runReceiver(config, seconds, reportNanos);
        }
        System.exit(0);
    }

    private static void runSender(NormConfig config, int size, double seconds, long reportNanos) throws Exception {
        byte[] content = new byte[size];
        for (int i = 0; i < size; i++) {
            content[i] = (byte) (i * 31 + 7);
        }
        try (NormSession session = NormSession.open(config, null, SEED)) {
            line("READY role=send node=" + config.nodeId() + " seed=" + SEED);
            long start = System.nanoTime();
            long end = start + (long) (seconds * 1e9);
            long nextReport = start + reportNanos;
            long objects = 0;
            while (true) {
                long now = System.nanoTime();
                if (now >= nextReport) {
                    stat(objects, objects * size, 0);
                    nextReport += reportNanos;
                }
                if (now >= end) {
                    break;
                }
                // every object carries the same bytes, as in nrlbench: a wrapper per object, no copy
                long ticket = session.enqueue(Unpooled.wrappedBuffer(content), null, PRIORITY,
                        Math.min(ENQUEUE_WAIT_MS, Math.max(1, (nextReport - now) / 1_000_000)), TimeUnit.MILLISECONDS);
                if (ticket >= 0) {
                    objects++;
                }
            }
            line("DONE role=send objects=" + objects);
            line("COUNTERS " + session.counters());      // what the engine did, for diagnosis
        }
    }

    private static void runReceiver(NormConfig config, double seconds, long reportNanos) throws Exception {
        AtomicLong objects = new AtomicLong();
        AtomicLong bytes = new AtomicLong();
        AtomicLong aborted = new AtomicLong();
        Map<LossReason, Integer> reasons = new java.util.concurrent.ConcurrentHashMap<>();
        NormListener counting = new NormListener() {
            @Override
            public void onObjectReceived(RemoteSenderInfo sender, int objectId, ByteBuf data, ByteBuf info) {
                bytes.lazySet(bytes.get() + data.readableBytes()); // single writer: the event loop
                objects.lazySet(objects.get() + 1);
            }

            @Override
            public void onObjectLost(RemoteSenderInfo sender, int objectId, LossReason reason) {
                aborted.lazySet(aborted.get() + 1);
                reasons.merge(reason, 1, Integer::sum);
            }
        };
        try (NormSession session = NormSession.open(config, counting, SEED)) {
            line("READY role=recv node=" + config.nodeId() + " seed=" + SEED);
            long start = System.nanoTime();
            long end = start + (long) (seconds * 1e9);
            for (long next = start + reportNanos; next < end; next += reportNanos) {
                TimeUnit.NANOSECONDS.sleep(Math.max(0, next - System.nanoTime()));
                stat(objects.get(), bytes.get(), aborted.get());
            }
            line("DONE role=recv objects=" + objects.get() + " aborted=" + aborted.get() + " reasons="
                    + reasons.toString().replace(" ", ""));
            line("COUNTERS " + session.counters());      // what the engine did, for diagnosis
        }
    }

    private static void stat(long objects, long bytes, long aborted) {
        line(String.format("STAT t=%.6f objects=%d bytes=%d aborted=%d", System.nanoTime() / 1e9, objects, bytes,
                aborted));
    }

    private static void line(String text) {
        System.out.println(text);
        System.out.flush();
    }

    /** The {@code send|recv --name value ...} command line shared with nrlbench. */
    static final class PeerOptions {
        final boolean send;
        private final Map<String, String> values = new HashMap<>();

        private PeerOptions(boolean send) {
            this.send = send;
        }

        static PeerOptions parse(String[] args) {
            if (args.length < 1 || !(args[0].equals("send") || args[0].equals("recv"))) {
                throw new IllegalArgumentException("first argument must be send or recv");
            }
            PeerOptions o = new PeerOptions(args[0].equals("send"));
            for (int i = 1; i < args.length; i += 2) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("missing value after " + args[i]);
                }
                o.values.put(args[i], args[i + 1]);
            }
            return o;
        }

        String text(String name, String fallback) {
            return values.getOrDefault(name, fallback);
        }

        int integer(String name, int fallback) {
            return values.containsKey(name) ? (int) Double.parseDouble(values.get(name)) : fallback;
        }

        double real(String name, double fallback) {
            return values.containsKey(name) ? Double.parseDouble(values.get(name)) : fallback;
        }
    }
}
