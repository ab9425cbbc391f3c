package org.fjm2.norm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.netty.buffer.Unpooled;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.transport.LossInjector;
import org.fjm2.norm.transport.LossyTransport;
import org.fjm2.testkit.Await;
import org.junit.jupiter.api.Test;

/**
 * The end of a stream falls into an outage: the receiver hears the first objects, then nothing — not the last
 * objects, not one of the sender's end-of-transmission FLUSHes — and the sender goes idle. When the outage ends the
 * receiver must still get the tail (the idle sender keeps naming its newest object), not time the sender out with
 * the tail neither delivered nor reported.
 */
class TailInOutageTest {

    static final int HEAD = 10;
    static final int TAIL = 10;
    static final int SIZE = 3_000;

    @Test
    void aReceiverThatMissedTheEndOfAStreamGetsItAfterTheOutage() throws Exception {
        AtomicBoolean outage = new AtomicBoolean();
        NormConfig base = TestGroups.fresh().toBuilder().robustFactor(3).build();
        ObjectCollector received = new ObjectCollector();
        try (NormSession rx = NormSession.open(base.toBuilder().nodeId(91).build(), received, 91,
                     LossyTransport.around(LossInjector.matching(buf -> outage.get()),
                             LossInjector.matching(buf -> outage.get())));
             NormSession tx = NormSession.open(base.toBuilder().nodeId(90).build(), null, 90)) {
            send(tx, 0, HEAD);
            assertThat(received.await(HEAD, 10, TimeUnit.SECONDS)).as("the head, before the outage").isTrue();
            outage.set(true);
            send(tx, HEAD, HEAD + TAIL);
            assertThat(tx.awaitFlushed(Duration.ofSeconds(10))).as("end-of-transmission FLUSHes sent").isTrue();
            long sent = tx.counters().get(Counter.PACKETS_SENT);
            assertThat(Await.until(() -> rx.counters().get(Counter.PACKETS_RECEIVED)
                    + rx.counters().get(Counter.RX_LOSS_INJECTED) >= sent, Duration.ofSeconds(10)))
                    .as("every datagram sent so far reached the receiver's loss layer").isTrue();
            long heardInOutage = rx.counters().get(Counter.RX_LOSS_INJECTED);
            assertThat(received.received()).as("nothing of the tail got through").hasSize(HEAD);
            outage.set(false);
            assertThat(received.await(HEAD + TAIL, 10, TimeUnit.SECONDS))
                    .as("the tail after the outage; receiver %s; sender %s", rx.counters(), tx.counters()).isTrue();
            assertThat(received.lost()).isEmpty();
            for (int i = 0; i < HEAD + TAIL; i++) {
                assertThat(received.received().get(i).crc()).isEqualTo(ObjectCollector.crc(TestObjects.content(9, i, SIZE)));
            }
            assertThat(heardInOutage).as("the outage swallowed the tail and the FLUSHes").isGreaterThan(TAIL);
        }
    }

    private static void send(NormSession tx, int from, int to) throws InterruptedException {
        for (int i = from; i < to; i++) {
            assertThat(tx.enqueue(Unpooled.wrappedBuffer(TestObjects.content(9, i, SIZE)), null, 4, 10,
                    TimeUnit.SECONDS)).isGreaterThanOrEqualTo(0);
        }
    }
}
