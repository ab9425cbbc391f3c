package org.fjm2.norm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.Unpooled;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.sender.CcRateController;
import org.fjm2.norm.transport.BottleneckTransport;
import org.fjm2.norm.transport.LossInjector;
import org.junit.jupiter.api.Test;

/**
 * NORM-CC over loopback (issue 18): a sender with {@code rateControl=cc} and a ceiling of 1 Gbit/s, a receiver
 * behind an emulated 20 Mbit/s bottleneck (a 50 ms tail-drop queue, 10 ms one way, and 0.1% seeded random loss:
 * {@link BottleneckTransport}) and a second receiver on plain loopback. The sender must find a rate below the
 * bottleneck from the bottlenecked receiver's feedback (it becomes the limiting receiver) and keep it there, and
 * every object must arrive intact at both. The control: the same run with a fixed 1 Gbit/s rate overruns the
 * bottleneck many times over.
 */
class CongestionControlTest {

    static final long BOTTLENECK = 20_000_000L;
    static final int SIZE = 64 * 1024;
    static final long RUN_NANOS = 8_000_000_000L;

    @Test
    void theRateConvergesBelowTheBottleneckAndEverythingArrives() throws Exception {
        long seed = 18_001;
        System.out.println("CongestionControlTest seed " + seed);
        Run run = run(NormConfig.RateControl.CC, seed);
        System.out.printf("cc: sent %.1f Mbit/s over the last half, bottlenecked receiver took %.1f Mbit/s, "
                + "queue drops %d%n", run.sentRate / 1e6, run.goodput / 1e6, run.queueDrops);
        assertThat(run.sentRate).as("sender's rate over the second half, bit/s").isLessThan(1.3 * BOTTLENECK);
        assertThat(run.goodput).as("objects' bits per second through the bottleneck").isGreaterThan(0.4 * BOTTLENECK);
        assertThat(run.ccFeedback).as("CC feedback the sender took").isPositive();
    }

    @Test
    void withoutCongestionControlTheSameSenderOverrunsTheBottleneck() throws Exception {
        long seed = 18_002;
        System.out.println("CongestionControlTest seed " + seed);
        // Without receiver-paced flow control too: the receiver's windows, bounded by its pace, would otherwise keep
        // a fixed-rate sender near the bottleneck as well (they pace to every FJM2 receiver, not to the path).
        Run run = run(NormConfig.RateControl.FIXED, false, seed);
        System.out.printf("fixed: sent %.1f Mbit/s, queue drops %d%n", run.sentRate / 1e6, run.queueDrops);
        assertThat(run.sentRate).as("the control: a fixed rate ignores the bottleneck").isGreaterThan(2.0 * BOTTLENECK);
    }

    /**
     * Hostile input: a node that claims 100% loss as often as it likes (forged NORM_ACK(CC) answering the latest
     * probe, as a node hearing the group can) becomes the limiting receiver and holds the sender at NORM-CC's floor, never below, while it
     * claims; within its inactivity time (CcNodes: 20 round trips, at least 500 ms) after it stops, the honest
     * receiver's slow start takes the rate back up.
     */
    @Test
    void aReceiverClaimingAbsurdLossHoldsTheRateAtTheFloorOnlyWhileItClaims() throws Exception {
        long seed = 18_003;
        System.out.println("CongestionControlTest seed " + seed);
        NormConfig base = TestGroups.fresh().toBuilder().txRate(200_000_000L).rateControl(NormConfig.RateControl.CC)
                .txCacheBytes(4 << 20).build();
        ObjectCollector honest = new ObjectCollector();
        try (NormSession rx = NormSession.open(base.toBuilder().nodeId(91).build(), honest, seed);
             NormSession tx = NormSession.open(base.toBuilder().nodeId(90).build(), null, seed + 1);
             ForgedPackets attacker = new ForgedPackets(base)) {
            Thread producer = new Thread(() -> {
                byte[] data = new byte[SIZE];
                try {
                    while (!Thread.currentThread().isInterrupted()) {
                        tx.enqueue(Unpooled.wrappedBuffer(data), null, 4, 100, TimeUnit.MILLISECONDS);
                    }
                } catch (InterruptedException | RuntimeException e) {
                    // stopped (or the session closed under it)
                }
            }, "cc-producer");
            producer.start();
            try {
                Thread.sleep(1000);
                long lowest = Long.MAX_VALUE;
                long attackEnd = System.nanoTime() + 3_000_000_000L;
                while (System.nanoTime() - attackEnd < 0) {
                    // the attacker answers the latest probe (cc_sequence counts probes from 0): it hears them all
                    int sequence = (int) (tx.counters().get(Counter.PROBES_SENT) - 1) & 0xFFFF;
                    attacker.send(ForgedPackets.ccAck(666, 90, tx.instanceId(), sequence, NormWire.CC_FLAG_RTT, 0.01,
                            1.0, 1));
                    Thread.sleep(5);
                    lowest = Math.min(lowest, tx.txRateBitsPerSecond());
                }
                long underAttack = tx.txRateBitsPerSecond();
                System.out.printf("under attack: rate %d bit/s (lowest %d); sender %s%n", underAttack, lowest,
                        tx.counters());
                assertThat(lowest).as("never below the floor").isGreaterThanOrEqualTo(CcRateController.MIN_BITS_PER_SECOND);
                assertThat(underAttack).as("the claim holds the rate at the floor")
                        .isLessThan(4 * CcRateController.MIN_BITS_PER_SECOND);
                long stopped = System.nanoTime();
                boolean recovered = org.fjm2.testkit.Await.until(
                        () -> tx.txRateBitsPerSecond() > 20 * CcRateController.MIN_BITS_PER_SECOND,
                        java.time.Duration.ofSeconds(5));
                System.out.printf("after the attack: %d bit/s after %.2f s%n", tx.txRateBitsPerSecond(),
                        (System.nanoTime() - stopped) / 1e9);
                assertThat(recovered).as("the honest receiver's feedback takes the rate back up; sender %s",
                        tx.counters()).isTrue();
                assertThat(System.nanoTime() - stopped).as("recovery time, ns")
                        .isLessThan(org.fjm2.norm.sender.CcNodes.INACTIVE_MIN_NANOS + 3_000_000_000L);
            } finally {
                producer.interrupt();
                producer.join();
            }
        }
    }

    record Run(double sentRate, double goodput, long queueDrops, long ccFeedback) {
    }

    private static Run run(NormConfig.RateControl control, long seed) throws Exception {
        return run(control, true, seed);
    }

    private static Run run(NormConfig.RateControl control, boolean flowControl, long seed) throws Exception {
        NormConfig base = TestGroups.fresh().toBuilder().txRate(1_000_000_000L).rateControl(control)
                .receiverFlowControl(flowControl).txCacheBytes(4 << 20).build();
        ObjectCollector slow = new ObjectCollector();
        ObjectCollector fast = new ObjectCollector();
        BottleneckTransport.Probe probe = new BottleneckTransport.Probe();
        try (NormSession slowRx = NormSession.open(base.toBuilder().nodeId(81).build(), slow, seed,
                BottleneckTransport.of(BOTTLENECK, 50_000_000L, 10_000_000L,
                        LossInjector.random(0.001, seed), probe));
             NormSession fastRx = NormSession.open(base.toBuilder().nodeId(82).build(), fast, seed + 1);
             NormSession tx = NormSession.open(base.toBuilder().nodeId(80).build(), null, seed + 2)) {
            SplittableRandom random = new SplittableRandom(seed);
            long start = System.nanoTime();
            long halfBytes = -1;
            long halfTime = 0;
            int sent = 0;
            long[] crcs = new long[4096];
            StringBuilder trace = new StringBuilder();
            long nextSample = start;
            while (System.nanoTime() - start < RUN_NANOS && sent < crcs.length) {
                byte[] data = new byte[SIZE];
                random.nextBytes(data);
                crcs[sent] = ObjectCollector.crc(data);
                if (tx.enqueue(Unpooled.wrappedBuffer(data), null, 4, 200, TimeUnit.MILLISECONDS) < 0) {
                    continue;       // the cache is full: try again (the loop checks the clock)
                }
                sent++;
                if (System.nanoTime() - nextSample >= 0) {
                    nextSample += 500_000_000L;
                    trace.append(String.format(" %.1f", tx.txRateBitsPerSecond() / 1e6));
                }
                if (halfBytes < 0 && System.nanoTime() - start >= RUN_NANOS / 2) {
                    halfBytes = tx.counters().get(Counter.BYTES_SENT);
                    halfTime = System.nanoTime();
                }
            }
            long endBytes = tx.counters().get(Counter.BYTES_SENT);
            long endTime = System.nanoTime();
            double sentRate = halfBytes < 0 ? 0 : (endBytes - halfBytes) * 8e9 / (endTime - halfTime);
            int objects = sent;
            boolean all = slow.await(objects, 60, TimeUnit.SECONDS) && fast.await(objects, 30, TimeUnit.SECONDS);
            double seconds = (System.nanoTime() - start) / 1e9;
            assertThat(all).as("%s: every object at both receivers (%d sent; slow %d, fast %d); sender %s; slow %s",
                    control, objects, slow.count(), fast.count(), tx.counters(), slowRx.counters()).isTrue();
            if (control == NormConfig.RateControl.CC) {
                assertThat(slow.lost()).as("objects the bottlenecked receiver gave up").isEmpty();
            }
            var fastObjects = fast.received();
            int firstId = fastObjects.get(0).objectId();
            for (ObjectCollector.Received r : fastObjects) {
                assertThat(r.crc()).as("object %d at the fast receiver", r.objectId())
                        .isEqualTo(crcs[(r.objectId() - firstId) & 0xFFFF]);
            }
            for (ObjectCollector.Received r : slow.received()) {
                assertThat(r.crc()).as("object %d at the slow receiver", r.objectId())
                        .isEqualTo(crcs[(r.objectId() - firstId) & 0xFFFF]);
            }
            System.out.printf("%s: %d objects in %.1f s; rate every 0.5 s (Mbit/s):%s; sender %s%n", control, objects,
                    seconds, trace, tx.counters());
            return new Run(sentRate, objects * (double) SIZE * 8 / seconds, probe.dropped(),
                    tx.counters().get(Counter.CC_FEEDBACK_RECEIVED));
        }
    }
}
