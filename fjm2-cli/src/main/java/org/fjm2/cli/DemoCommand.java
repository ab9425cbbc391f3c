package org.fjm2.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.fjm2.norm.NormSession;
import org.fjm2.norm.api.LossReason;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.api.NormListener;
import org.fjm2.norm.api.RemoteSenderInfo;
import org.fjm2.norm.transport.LossInjector;
import org.fjm2.norm.transport.LossyTransport;
import org.fjm2.util.Quantities;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fjm2 demo}: one sender and several receivers on loopback multicast in this process, each receiver losing
 * a share of the packets (seeded), so that every repair path runs; prints progress and a summary.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"JMS over loopback multicast, no setup: 1 publisher, N lossy subscribers, every message.",
                "Each subscriber loses a share of the packets (seeded) and still gets every message, in order.",
                "With --engine: the same with raw NORM data objects (no JMS)."})
public final class DemoCommand implements Callable<Integer> {

    /** Largest --size with --engine: the objects are held in memory, several at once per receiver. */
    static final long MAX_OBJECT_SIZE = 64L << 20;

    @Option(names = "--engine", description = "Demonstrate the NORM engine alone (data objects, no JMS).")
    boolean engine;

    @Option(names = "--receivers", defaultValue = "3", description = "Subscribers (receivers). Default: ${DEFAULT-VALUE}.")
    int receivers;

    @Option(names = "--messages", defaultValue = "200000", description = "JMS messages to publish. Default: ${DEFAULT-VALUE}.")
    int messages;

    @Option(names = "--message-size", paramLabel = "BYTES", defaultValue = "256",
            description = "JMS message body size (256, 4k). Default: ${DEFAULT-VALUE}.")
    String messageSize;

    @Option(names = "--publish-rate", defaultValue = "50000",
            description = "JMS messages per second the publisher sends (0: as fast as it can). Default: ${DEFAULT-VALUE}.")
    int publishRate;

    @Option(names = "--objects", defaultValue = "2000", description = "With --engine: objects to send. Default: ${DEFAULT-VALUE}.")
    int objects;

    @Option(names = "--size", paramLabel = "BYTES", defaultValue = "64k",
            description = "With --engine: object size (64k, 1MiB). Default: ${DEFAULT-VALUE}.")
    String size;

    @Option(names = "--loss", paramLabel = "LOSS", defaultValue = "5%",
            description = "Packet loss at each receiver (5%% or 0.05). Default: ${DEFAULT-VALUE}.")
    String loss;

    @Option(names = "--rate", paramLabel = "BPS", defaultValue = "200m",
            description = "Sender rate in bit/s (100m, 100mbit, 1g). Default: ${DEFAULT-VALUE}.")
    String rate;

    @Option(names = "--group", defaultValue = "239.255.77.1:6003", description = "Group:port. Default: ${DEFAULT-VALUE}.")
    String group;

    @Option(names = "--interface", defaultValue = "lo", description = "Interface. Default: ${DEFAULT-VALUE}.")
    String interfaceName;

    @Option(names = "--seed", defaultValue = "1", description = "Loss seed. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Override
    public Integer call() throws Exception {
        double lossFraction = Quantities.loss("--loss", loss);
        long rateBps = Quantities.rate("--rate", rate);
        if (!engine) {
            int messageBytes = (int) Math.min(Integer.MAX_VALUE, Quantities.bytes("--message-size", messageSize));
            if (receivers < 1 || messages < 1) {
                throw new IllegalArgumentException("--receivers and --messages must be positive");
            }
            return JmsDemo.run(group, interfaceName, receivers, messages, messageBytes, lossFraction, rateBps, seed,
                    publishRate);
        }
        long sizeBytes = Quantities.bytes("--size", size);
        if (receivers < 1 || objects < 1 || sizeBytes < 1 || sizeBytes > MAX_OBJECT_SIZE) {
            throw new IllegalArgumentException("--receivers and --objects must be positive, --size 1.."
                    + Quantities.formatBytes(MAX_OBJECT_SIZE));
        }
        int size = (int) sizeBytes;
        int colon = group.lastIndexOf(':');
        NormConfig base = NormConfig.builder(group.substring(0, colon), Integer.parseInt(group.substring(colon + 1)))
                .interfaceName(interfaceName).txRate(rateBps).maxObjectSize(Math.max(size, 1024))
                .grttInitial(java.time.Duration.ofMillis(2)).build();
        List<NormSession> rx = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(receivers);
        AtomicLong delivered = new AtomicLong();
        AtomicLong lost = new AtomicLong();
        java.util.Map<LossReason, Integer> reasons = new java.util.concurrent.ConcurrentHashMap<>();
        System.out.printf("FJM2 demo: 1 sender -> %d receivers on %s (%s), %d objects of %d bytes, %.1f%% loss at "
                + "each receiver (seed %d)%n", receivers, group, interfaceName, objects, size, lossFraction * 100,
                seed);
        try {
            for (int r = 0; r < receivers; r++) {
                NormConfig.Builder b = base.toBuilder().nodeId(1000 + r);
                LossInjector injected = lossFraction > 0 ? LossInjector.random(lossFraction, seed + r)
                        : LossInjector.NONE;
                int[] count = {0};
                rx.add(NormSession.open(b.build(), new NormListener() {
                    @Override
                    public void onObjectReceived(RemoteSenderInfo sender, int objectId, ByteBuf data, ByteBuf info) {
                        delivered.incrementAndGet();
                        if (++count[0] == objects) {
                            done.countDown();
                        }
                    }

                    @Override
                    public void onObjectLost(RemoteSenderInfo sender, int objectId, LossReason reason) {
                        lost.incrementAndGet();
                        reasons.merge(reason, 1, Integer::sum);
                        if (++count[0] == objects) {
                            done.countDown();
                        }
                    }
                }, seed + 100 + r, LossyTransport.around(injected, null)));
            }
            long start = System.nanoTime();
            try (NormSession tx = NormSession.open(base.toBuilder().nodeId(1).build(), null, seed)) {
                byte[] content = new byte[size];
                new SplittableRandom(seed).nextBytes(content);
                long lastPrint = start;
                for (int i = 0; i < objects; i++) {
                    tx.enqueue(Unpooled.wrappedBuffer(content), null, 4, 60, TimeUnit.SECONDS);
                    long now = System.nanoTime();
                    if (now - lastPrint > 1_000_000_000L) {
                        lastPrint = now;
                        System.out.printf("  %5.1f s  sent %d/%d, delivered %d of %d, repairs %d, grtt %.1f ms%n",
                                (now - start) / 1e9, i + 1, objects, delivered.get(), (long) objects * receivers,
                                tx.counters().get(Counter.REPAIRS_SENT), tx.grttSeconds() * 1e3);
                    }
                }
                boolean ok = done.await(120, TimeUnit.SECONDS);
                double seconds = (System.nanoTime() - start) / 1e9;
                long nacks = rx.stream().mapToLong(s -> s.counters().get(Counter.NACKS_SENT)).sum();
                long dropped = rx.stream().mapToLong(s -> s.counters().get(Counter.RX_LOSS_INJECTED)).sum();
                System.out.printf("%n%-28s %12s%n", "", "value");
                row("objects delivered", delivered.get() + " of " + (long) objects * receivers);
                row("objects lost", lost.get() + (reasons.isEmpty() ? "" : " " + reasons));
                row("time", String.format("%.2f s", seconds));
                row("throughput per receiver", String.format("%.1f MB/s, %.0f objects/s",
                        (double) objects * size / seconds / 1e6, objects / seconds));
                row("packets dropped (injected)", String.valueOf(dropped));
                row("NACKs sent (all receivers)", String.valueOf(nacks));
                row("repair packets sent", String.valueOf(tx.counters().get(Counter.REPAIRS_SENT)));
                row("data packets sent", String.valueOf(tx.counters().get(Counter.DATA_SENT)));
                System.out.println(ok && lost.get() == 0 ? "every receiver got every object." : "INCOMPLETE");
                return ok && lost.get() == 0 ? 0 : 1;
            }
        } finally {
            rx.forEach(NormSession::close);
        }
    }

    private static void row(String name, String value) {
        System.out.printf("%-28s %s%n", name, value);
    }
}
