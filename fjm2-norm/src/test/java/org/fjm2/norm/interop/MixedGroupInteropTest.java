package org.fjm2.norm.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.fjm2.norm.interop.InteropWorkload.LOSS_PERCENT;
import static org.fjm2.norm.interop.InteropWorkload.OBJECTS;
import static org.fjm2.norm.interop.InteropWorkload.RUN_TIMEOUT;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.fjm2.norm.LossPredicates;
import org.fjm2.norm.NormSession;
import org.fjm2.norm.ObjectCollector;
import org.fjm2.norm.api.AckResult;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.api.NormListener;
import org.fjm2.norm.transport.LossInjector;
import org.fjm2.norm.transport.LossyTransport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A mixed group (issue 3): one fjm2 sender, one NRL NORM receiver and two fjm2 receivers, each receiver losing 10% of
 * the data it receives independently of the others. Everyone hears everyone's NACKs (multicast), so NRL and fjm2
 * receivers suppress each other's requests and one repair (with parity: one parity symbol) serves different losses
 * at different receivers. Every receiver must complete every object, and all three must acknowledge the watermark.
 */
class MixedGroupInteropTest {

    static final int SENDER = 40;
    static final int NRL_RECEIVER = 41;
    static final int[] FJM2_RECEIVERS = {42, 43};

    @ParameterizedTest(name = "parity {0}")
    @ValueSource(ints = {0, InteropWorkload.PARITY})
    void everyReceiverCompletesEveryObject(int parity) throws Exception {
        NrlPeer.assumeAvailable();
        NormConfig group = InteropWorkload.freshGroup();
        long seed = 5300 + parity;
        int[] sizes = InteropWorkload.sizes(seed);
        CompletableFuture<AckResult> acknowledged = new CompletableFuture<>();
        NormListener senderListener = InteropWorkload.acknowledgementListener(acknowledged);
        List<NormSession> receivers = new ArrayList<>();
        List<ObjectCollector> collected = new ArrayList<>();
        try (NrlPeer nrl = InteropWorkload.nrlReceiver(group, NRL_RECEIVER, seed).start()) {
            for (int i = 0; i < FJM2_RECEIVERS.length; i++) {
                ObjectCollector collector = new ObjectCollector(true);
                long lossSeed = seed * 10 + i;
                // loss of data only: each receiver's own seeded pattern, independent of the others
                LossInjector loss = LossInjector.random(LOSS_PERCENT / 100.0, lossSeed, LossPredicates::isData);
                receivers.add(NormSession.open(InteropWorkload.fjm2Node(group, FJM2_RECEIVERS[i], 0).build(),
                        collector, lossSeed, LossyTransport.around(loss, null)));
                collected.add(collector);
            }
            nrl.awaitEvent("READY", Duration.ofSeconds(10));
            NormConfig config = InteropWorkload.fjm2Node(group, SENDER, parity)
                    .txCacheObjects(InteropWorkload.NRL_RECEIVER_WINDOW).build();
            try (NormSession tx = NormSession.open(config, senderListener, seed)) {
                InteropWorkload.enqueueAll(tx, seed, sizes);
                tx.requestAcknowledgement(NRL_RECEIVER, FJM2_RECEIVERS[0], FJM2_RECEIVERS[1]);
                for (int i = 0; i < FJM2_RECEIVERS.length; i++) {
                    assertThat(collected.get(i).await(OBJECTS, RUN_TIMEOUT.toSeconds(), TimeUnit.SECONDS))
                            .as("fjm2 receiver %d (loss seed %d): %s; sender %s", FJM2_RECEIVERS[i], seed * 10 + i,
                                    receivers.get(i).counters(), tx.counters()).isTrue();
                }
                nrl.awaitCount("RX_OBJECT", OBJECTS, RUN_TIMEOUT);
                AckResult result = acknowledged.get(RUN_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                assertThat(result.acknowledged()).as("watermark acknowledgements; sender %s", tx.counters())
                        .isEqualTo(Map.of(NRL_RECEIVER, true, FJM2_RECEIVERS[0], true, FJM2_RECEIVERS[1], true));
                if (parity > 0) {
                    assertThat(tx.counters().get(Counter.PARITY_SENT)).as("repairs by parity: %s", tx.counters())
                            .isPositive();
                }
            }
            InteropWorkload.assertAllReceived(nrl, seed, sizes);
            for (int i = 0; i < FJM2_RECEIVERS.length; i++) {
                InteropWorkload.assertAllReceived(collected.get(i), seed, sizes, "fjm2 receiver " + FJM2_RECEIVERS[i]);
            }
        } finally {
            receivers.forEach(NormSession::close);
        }
    }
}
