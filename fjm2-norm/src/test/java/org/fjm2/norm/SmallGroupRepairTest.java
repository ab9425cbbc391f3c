package org.fjm2.norm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.api.NormListener;
import org.fjm2.norm.api.RemoteSenderInfo;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.ObjectMessageFlyweight;
import org.fjm2.norm.transport.LossInjector;
import org.fjm2.norm.transport.LossyTransport;
import org.junit.jupiter.api.Test;

/**
 * Two losses a few objects apart, in a small group (back-off factor 0, no parity) with a GRTT held at 300 ms: the
 * second loss shows while the receiver holds off after its NACK for the first (2 GRTTs), and its NACK reaches the
 * sender while the sender holds off after repairing the first (1 GRTT). Before, the receiver asked only when its
 * hold-off ended and the sender, in hold-off, ignored requests for data it had passed: the second lost object came
 * about 2 GRTTs after the first, and everything behind it waited (on a 200 ms lossy WAN, a round trip per loss). Now
 * the receiver asks for losses beyond what its last NACK covered at once, and the sender repairs objects its last
 * cycle did not.
 */
class SmallGroupRepairTest {

    static final Duration GRTT = Duration.ofMillis(300);
    static final int OBJECTS = 24;
    static final int SIZE = 1_000;          // one segment each
    static final long PACE_MILLIS = 20;
    /** First transmissions of data (1-based) the receiver loses: objects 9 and 13 (from 0), after the start. */
    static final int FIRST_LOSS = 10;
    static final int SECOND_LOSS = 14;
    /**
     * Each lost object comes within one GRTT of the object before it (before: the second about two GRTTs after the
     * first; a loss during a hold-off begun at the start, as long).
     */
    static final Duration SECOND_REPAIR_BOUND = GRTT;

    @Test
    void aLossDuringHoldOffIsRepairedWithoutWaitingForIt() throws Exception {
        AtomicInteger dataSeen = new AtomicInteger();
        LossInjector twoLosses = LossInjector.matching(buf -> {
            if ((buf.getByte(buf.readerIndex()) & 0x0F) != NormWire.TYPE_DATA
                    || (buf.getByte(buf.readerIndex() + ObjectMessageFlyweight.FLAGS_OFFSET) & NormWire.FLAG_REPAIR) != 0) {
                return false;       // first transmissions only: a lost repair is another case
            }
            int n = dataSeen.incrementAndGet();
            return n == FIRST_LOSS || n == SECOND_LOSS;
        });
        NormConfig base = TestGroups.fresh().toBuilder().grttInitial(GRTT).grttMin(GRTT).backoffFactor(0).parity(0)
                .build();
        // Delivery is in order: the n-th object delivered is the n-th sent.
        long[] deliveredNanos = new long[OBJECTS];
        AtomicInteger delivered = new AtomicInteger();
        CountDownLatch all = new CountDownLatch(OBJECTS);
        NormListener timing = new NormListener() {
            @Override
            public void onObjectReceived(RemoteSenderInfo sender, int objectId, ByteBuf data, ByteBuf info) {
                int n = delivered.getAndIncrement();
                if (n < OBJECTS) {
                    deliveredNanos[n] = System.nanoTime();
                }
                all.countDown();
            }
        };
        try (NormSession rx = NormSession.open(base.toBuilder().nodeId(91).build(), timing, 91,
                     LossyTransport.around(twoLosses, LossInjector.NONE));
             NormSession tx = NormSession.open(base.toBuilder().nodeId(90).build(), null, 90)) {
            for (int i = 0; i < OBJECTS; i++) {
                tx.enqueue(Unpooled.wrappedBuffer(TestObjects.content(9, i, SIZE)), null, 4, 10,
                        TimeUnit.SECONDS);
                Thread.sleep(PACE_MILLIS);
            }
            assertThat(all.await(20, TimeUnit.SECONDS)).as("every object delivered; receiver %s; sender %s",
                    rx.counters(), tx.counters()).isTrue();
            long firstWaitMillis = TimeUnit.NANOSECONDS.toMillis(deliveredNanos[FIRST_LOSS - 1]
                    - deliveredNanos[FIRST_LOSS - 2]);
            long apartMillis = TimeUnit.NANOSECONDS.toMillis(deliveredNanos[SECOND_LOSS - 1]
                    - deliveredNanos[FIRST_LOSS - 1]);
            long[] sinceFirstMillis = java.util.Arrays.stream(deliveredNanos)
                    .map(t -> TimeUnit.NANOSECONDS.toMillis(t - deliveredNanos[0])).toArray();
            assertThat(firstWaitMillis).as("the first lost object after the one before it (ms); deliveries %s",
                    java.util.Arrays.toString(sinceFirstMillis)).isLessThan(SECOND_REPAIR_BOUND.toMillis());
            assertThat(apartMillis).as("the second lost object after the first (ms); deliveries %s; receiver %s; "
                    + "sender %s", java.util.Arrays.toString(sinceFirstMillis), rx.counters(), tx.counters())
                    .isLessThan(SECOND_REPAIR_BOUND.toMillis());
            assertThat(rx.counters().get(Counter.NACKS_BEYOND_HORIZON)).as("asked during hold-off").isPositive();
            assertThat(tx.counters().get(Counter.REPAIRS_IN_HOLDOFF)).as("repaired during hold-off").isPositive();
        }
    }
}
