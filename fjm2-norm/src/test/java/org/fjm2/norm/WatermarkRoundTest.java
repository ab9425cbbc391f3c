package org.fjm2.norm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.fjm2.norm.api.AckResult;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.api.NormListener;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.ObjectMessageFlyweight;
import org.fjm2.norm.transport.LossInjector;
import org.fjm2.norm.transport.LossyTransport;
import org.junit.jupiter.api.Test;

/**
 * A watermark (positive acknowledgement) round lasts as long as the sender is still repairing data up to the
 * watermark: a receiver that needs many repair cycles must not be reported as not acknowledging just because the
 * round's FLUSH repetitions (robust factor) ran out while its repairs were on the way.
 */
class WatermarkRoundTest {

    static final int OBJECTS = 20;
    static final int SIZE = 10_000;
    /**
     * Transmissions of one segment the receiver loses: each repair cycle takes at least the receiver's hold-off of
     * (backoff + 2) = 6 GRTT, so these cycles outlast the round's 20 FLUSHes at 2 GRTT (40 GRTT) several times over.
     */
    static final int LOST_TRANSMISSIONS = 12;

    @Test
    void roundOutlastsTheRepairsOfALaggingReceiver() throws Exception {
        NormConfig base = TestGroups.fresh();
        CompletableFuture<AckResult> acknowledged = new CompletableFuture<>();
        NormListener senderListener = new NormListener() {
            @Override
            public void onAcknowledgementComplete(AckResult result) {
                acknowledged.complete(result);
            }
        };
        ObjectCollector received = new ObjectCollector();
        LossInjector loss = LossInjector.matching(firstSegmentOfFirstObject(LOST_TRANSMISSIONS));
        try (NormSession rx = NormSession.open(base.toBuilder().nodeId(61).build(), received, 61,
                LossyTransport.around(loss, null));
             NormSession tx = NormSession.open(base.toBuilder().nodeId(60).build(), senderListener, 60)) {
            for (int i = 0; i < OBJECTS; i++) {
                assertThat(tx.enqueue(Unpooled.wrappedBuffer(TestObjects.content(60, i, SIZE)), null, 4, 10,
                        TimeUnit.SECONDS)).isGreaterThanOrEqualTo(0);
            }
            tx.requestAcknowledgement(61);
            AckResult result = acknowledged.get(30, TimeUnit.SECONDS);
            assertThat(result.acknowledged()).as("receiver %s; sender %s", rx.counters(), tx.counters())
                    .isEqualTo(Map.of(61, true));
            assertThat(received.await(OBJECTS, 10, TimeUnit.SECONDS)).isTrue();
            assertThat(rx.counters().get(Counter.RX_LOSS_INJECTED)).isEqualTo(LOST_TRANSMISSIONS);
            assertThat(tx.counters().get(Counter.FLUSHES_SENT)).as("FLUSHes beyond one round's budget")
                    .isGreaterThan(NormConfig.DEFAULT_ROBUST_FACTOR);
        }
    }

    /** Drops the first {@code times} transmissions (original and repairs) of segment 0 of the first object heard. */
    private static Predicate<ByteBuf> firstSegmentOfFirstObject(int times) {
        ObjectMessageFlyweight msg = new ObjectMessageFlyweight();
        int[] first = {-1};
        int[] dropped = {0};
        return buf -> {
            if (!LossPredicates.isData(buf)) {
                return false;
            }
            msg.wrap(buf);
            if (first[0] < 0) {
                first[0] = msg.objectId();
            }
            boolean target = msg.objectId() == first[0] && msg.blockNumber(8) == 0 && msg.symbolId(8) == 0
                    && msg.fecId() == NormWire.FEC_RS8;
            if (target && dropped[0] < times) {
                dropped[0]++;
                return true;
            }
            return false;
        };
    }
}
