package org.fjm2.norm.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.fjm2.norm.interop.InteropWorkload.BLOCK;
import static org.fjm2.norm.interop.InteropWorkload.LOSS_PERCENT;
import static org.fjm2.norm.interop.InteropWorkload.OBJECTS;
import static org.fjm2.norm.interop.InteropWorkload.RUN_TIMEOUT;

import java.util.concurrent.TimeUnit;

import org.fjm2.norm.NormSession;
import org.fjm2.norm.ObjectCollector;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * NRL NORM sender -> fjm2 receiver (issue 3): the NRL peer sends 500 objects of 1 KB..256 KB with NORM_INFO names
 * and loses 10% of everything it transmits (NormSetTxLoss: data, repairs and commands); the fjm2 receiver must
 * complete every object byte for byte, in order, with its name. Without parity it repairs by retransmission; with
 * RS(20, 16) parity NRL answers its NACKs with parity, which it must decode. NRL then asks the fjm2 receiver to
 * acknowledge the last object (watermark), which it must do.
 */
class NrlSenderInteropTest {

    static final int RECEIVER = 20;

    @ParameterizedTest(name = "parity {0}")
    @ValueSource(ints = {0, InteropWorkload.PARITY})
    void everyObjectArrivesIntactWithItsName(int parity) throws Exception {
        NrlPeer.assumeAvailable();
        NormConfig group = InteropWorkload.freshGroup();
        long seed = 3100 + parity;
        int[] sizes = InteropWorkload.sizes(seed);
        ObjectCollector received = new ObjectCollector(true);
        try (NormSession rx = NormSession.open(InteropWorkload.fjm2Node(group, RECEIVER, 0).build(), received, seed)) {
            try (NrlPeer tx = NrlPeer.sender(group.group().getHostAddress(), group.port()).option("--id", 10)
                    .option("--sizes", InteropWorkload.sizesArgument(sizes)).option("--seed", seed).flag("--info")
                    .option("--segment", InteropWorkload.SEGMENT).option("--block", BLOCK)
                    .option("--parity", parity).option("--tx-loss", LOSS_PERCENT)
                    .option("--rate", InteropWorkload.RATE).option("--grtt", InteropWorkload.GRTT_SECONDS)
                    .option("--grtt-max", InteropWorkload.GRTT_MAX_SECONDS).option("--ack", RECEIVER)
                    .option("--linger", RUN_TIMEOUT.toSeconds()).option("--timeout", RUN_TIMEOUT.toSeconds())
                    .start()) {
                boolean complete = received.await(OBJECTS, RUN_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                assertThat(complete).as("fjm2 receiver (seed %d): %d of %d objects; %s%s", seed, received.count(),
                        OBJECTS, rx.counters(), tx.describe()).isTrue();
                assertThat(tx.history("SENT")).as("objects the NRL sender sent").hasSize(OBJECTS);
                // NRL asks for a watermark acknowledgement after the last object: the fjm2 receiver must answer
                NrlPeer.Event watermark = tx.awaitEvent("WATERMARK", RUN_TIMEOUT);
                assertThat(watermark.get("node")).isEqualTo(Integer.toString(RECEIVER));
                assertThat(watermark.get("status")).as("NRL's view of the fjm2 receiver's ACK(FLUSH)%s", tx.describe())
                        .isEqualTo("SUCCESS");
            }
            InteropWorkload.assertAllReceived(received, seed, sizes, "fjm2 receiver");
            assertThat(rx.counters().get(Counter.NACKS_SENT)).as("10%% loss needs NACKs: %s", rx.counters())
                    .isPositive();
            if (parity > 0) {
                assertThat(rx.counters().get(Counter.FEC_DECODES)).as("blocks rebuilt from NRL's parity: %s",
                        rx.counters()).isPositive();
            } else {
                assertThat(rx.counters().get(Counter.FEC_DECODES)).isZero();
            }
        }
    }
}
