package org.fjm2.norm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.Unpooled;
import org.fjm2.norm.api.AckResult;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormListener;
import org.junit.jupiter.api.Test;

/** Priority transmit queues, and watermark acknowledgement rounds that succeed and that fail. */
class PriorityAndAcknowledgementTest {

    @Test
    void higherPriorityObjectsOvertakeQueuedLowerPriorityOnes() throws Exception {
        // A slow sender (2 Mbit/s) so that objects queue up behind the one being sent.
        NormConfig base = TestGroups.fresh().toBuilder().txRate(2_000_000).build();
        List<Long> startedTickets = new CopyOnWriteArrayList<>();
        ObjectCollector rx = new ObjectCollector(true);
        NormListener order = new NormListener() {
            @Override
            public void onTxObjectStarted(long ticket, int objectId) {
                startedTickets.add(ticket);
            }
        };
        try (NormSession receiver = NormSession.open(base.toBuilder().nodeId(91).build(), rx, 1);
             NormSession sender = NormSession.open(base.toBuilder().nodeId(90).build(), order, 2)) {
            long[] low = new long[5];
            for (int i = 0; i < low.length; i++) {
                low[i] = sender.enqueue(Unpooled.wrappedBuffer(new byte[20_000]), null, 1, 5, TimeUnit.SECONDS);
            }
            long high = sender.enqueue(Unpooled.wrappedBuffer(new byte[] {9}), null, 9, 5, TimeUnit.SECONDS);
            assertThat(rx.await(6, 30, TimeUnit.SECONDS)).isTrue();
            // The first low-priority object may already be on the wire; the high one must come right after it.
            assertThat(startedTickets.indexOf(high)).as("start order %s", startedTickets).isLessThanOrEqualTo(1);
            assertThat(rx.payloads().get(startedTickets.indexOf(high))).containsExactly(9);
        }
    }

    @Test
    void watermarkRoundReportsWhoAcknowledged() throws Exception {
        NormConfig base = TestGroups.fresh();
        CompletableFuture<AckResult> result = new CompletableFuture<>();
        NormListener listener = new NormListener() {
            @Override
            public void onAcknowledgementComplete(AckResult r) {
                result.complete(r);
            }
        };
        ObjectCollector rx = new ObjectCollector();
        try (NormSession receiver = NormSession.open(base.toBuilder().nodeId(95).build(), rx, 1);
             NormSession sender = NormSession.open(base.toBuilder().nodeId(94).robustFactor(5).build(), listener, 2)) {
            for (int i = 0; i < 10; i++) {
                sender.enqueue(Unpooled.wrappedBuffer(new byte[5000]), null, 4, 5, TimeUnit.SECONDS);
            }
            sender.requestAcknowledgement(95, 4242);      // 4242 does not exist
            AckResult r = result.get(30, TimeUnit.SECONDS);
            assertThat(r.acknowledged()).containsEntry(95, true).containsEntry(4242, false);
            assertThat(r.complete()).isFalse();
            assertThat(rx.await(10, 5, TimeUnit.SECONDS)).isTrue();
        }
    }
}
