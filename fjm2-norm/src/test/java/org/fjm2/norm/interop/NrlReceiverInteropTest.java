package org.fjm2.norm.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.fjm2.norm.interop.InteropWorkload.LOSS_PERCENT;
import static org.fjm2.norm.interop.InteropWorkload.OBJECTS;
import static org.fjm2.norm.interop.InteropWorkload.RUN_TIMEOUT;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.fjm2.norm.NormSession;
import org.fjm2.norm.api.AckResult;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.api.NormListener;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * fjm2 sender -> NRL NORM receiver (issue 3): the fjm2 sender sends 500 objects of 1 KB..256 KB with NORM_INFO
 * names to an NRL receiver that loses 10% of what it receives (NormSetRxLoss), then asks it to acknowledge the last
 * object (watermark). The NRL receiver must report every object complete, with the right bytes and name, and its
 * NORM_ACK(FLUSH) must complete the fjm2 sender's acknowledgement round. With RS(20, 16) parity the NRL receiver's
 * NACKs (which ask for parity by count) must be answered with parity it can decode.
 */
class NrlReceiverInteropTest {

    static final int NRL_NODE = 2;

    @ParameterizedTest(name = "parity {0}")
    @ValueSource(ints = {0, InteropWorkload.PARITY})
    void nrlReceiverCompletesEveryObjectAndAcknowledges(int parity) throws Exception {
        NrlPeer.assumeAvailable();
        NormConfig group = InteropWorkload.freshGroup();
        long seed = 4200 + parity;
        int[] sizes = InteropWorkload.sizes(seed);
        CompletableFuture<AckResult> acknowledged = new CompletableFuture<>();
        NormListener listener = InteropWorkload.acknowledgementListener(acknowledged);
        try (NrlPeer rx = InteropWorkload.nrlReceiver(group, NRL_NODE, seed).start()) {
            rx.awaitEvent("READY", Duration.ofSeconds(10));
            NormConfig config = InteropWorkload.fjm2Node(group, 30, parity)
                    .txCacheObjects(InteropWorkload.NRL_RECEIVER_WINDOW).build();
            try (NormSession tx = NormSession.open(config, listener, seed)) {
                InteropWorkload.enqueueAll(tx, seed, sizes);
                tx.requestAcknowledgement(NRL_NODE);
                AckResult result = acknowledged.get(RUN_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                assertThat(result.acknowledged()).as("watermark acknowledgement; sender %s%s", tx.counters(),
                        rx.describe()).isEqualTo(Map.of(NRL_NODE, true));
                assertThat(result.complete()).isTrue();
                rx.awaitCount("RX_OBJECT", OBJECTS, Duration.ofSeconds(10));   // reported just before or after the ACK
                assertThat(tx.counters().get(Counter.NACKS_RECEIVED)).as("NACKs from the NRL receiver: %s",
                        tx.counters()).isPositive();
                if (parity > 0) {
                    assertThat(tx.counters().get(Counter.PARITY_SENT)).as("repairs by parity: %s", tx.counters())
                            .isPositive();
                }
            }
            InteropWorkload.assertAllReceived(rx, seed, sizes);
        }
    }
}
