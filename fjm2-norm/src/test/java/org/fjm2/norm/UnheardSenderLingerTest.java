package org.fjm2.norm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.ObjectMessageFlyweight;
import org.fjm2.norm.transport.LossInjector;
import org.fjm2.norm.transport.LossyTransport;
import org.junit.jupiter.api.Test;

/**
 * A sender that never heard any receiver stays for repairs after its FLUSHes ({@link NormSession#UNHEARD_LINGER}):
 * the three-LAN mesh's failure, where a receiver behind a tunnel lacked a publisher's last objects and NACKed them
 * only after the publisher, having heard nobody, had closed. Here the receiver loses the first transmission of the
 * last object and its feedback is lost for its first 700 ms (longer than the sender's FLUSHes); the sender closes
 * as soon as {@code awaitFlushed} returns. Without the linger the last object is lost.
 */
class UnheardSenderLingerTest {

    static final int OBJECTS = 5;
    static final long DEAF_NANOS = TimeUnit.MILLISECONDS.toNanos(700);

    @Test
    void aSenderThatHeardNobodyAnswersLateNacksBeforeItCloses() throws Exception {
        NormConfig base = TestGroups.fresh();
        ObjectCollector received = new ObjectCollector();
        // both injectors run on the receiver's event loop: the deaf time counts from the first datagram heard
        long[] firstHeard = {0};
        java.util.function.Predicate<ByteBuf> lastObject = firstTransmissionOfObject(OBJECTS);
        LossInjector receiveLoss = LossInjector.matching(buf -> {
            if (firstHeard[0] == 0) {
                firstHeard[0] = System.nanoTime();
            }
            return lastObject.test(buf);
        });
        LossInjector lateFeedback = LossInjector.matching(buf -> firstHeard[0] == 0
                || System.nanoTime() - firstHeard[0] < DEAF_NANOS);
        try (NormSession rx = NormSession.open(base.toBuilder().nodeId(91).build(), received, 91,
                LossyTransport.around(receiveLoss, lateFeedback))) {
            NormSession tx = NormSession.open(base.toBuilder().nodeId(90).build(), null, 90);
            try {
                for (int i = 0; i < OBJECTS; i++) {
                    assertThat(tx.enqueue(Unpooled.wrappedBuffer(TestObjects.content(90, i, 2_000)), null, 4, 10,
                            TimeUnit.SECONDS)).isGreaterThanOrEqualTo(0);
                }
                long start = System.nanoTime();
                assertThat(tx.awaitFlushed(Duration.ofSeconds(20))).isTrue();
                System.out.printf("awaitFlushed took %d ms; sender %s; receiver %s%n",
                        (System.nanoTime() - start) / 1_000_000, tx.counters(), rx.counters());
            } finally {
                tx.close();
            }
            assertThat(received.awaitFrom(90, OBJECTS, 10, TimeUnit.SECONDS))
                    .as("every object, the last one repaired before the sender closed; receiver %s", rx.counters())
                    .isTrue();
            assertThat(received.lostFrom(90)).isEmpty();
        }
    }

    /** Drops the first transmission (not the repairs) of every segment of the n-th object heard. */
    private static java.util.function.Predicate<ByteBuf> firstTransmissionOfObject(int n) {
        ObjectMessageFlyweight msg = new ObjectMessageFlyweight();
        Set<Integer> objects = new HashSet<>();
        int[] target = {-1};
        return buf -> {
            if (!LossPredicates.isData(buf)) {
                return false;
            }
            msg.wrap(buf);
            if (objects.add(msg.objectId()) && objects.size() == n) {
                target[0] = msg.objectId();
            }
            return msg.objectId() == target[0] && !msg.hasFlag(NormWire.FLAG_REPAIR);
        };
    }
}
