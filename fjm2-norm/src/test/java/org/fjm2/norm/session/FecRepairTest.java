package org.fjm2.norm.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.Unpooled;
import org.fjm2.norm.session.NormCounters.Counter;
import org.fjm2.norm.transport.LossInjector;
import org.junit.jupiter.api.Test;

/**
 * Reed-Solomon repair end to end: receivers with independent loss get parity instead of retransmissions (one
 * parity symbol repairs a different loss at each receiver), decode blocks, and every object arrives intact,
 * including objects smaller than one segment and short blocks.
 */
class FecRepairTest {

    static final long CONTENT_SEED = 5510;

    @Test
    void parityRepairsIndependentLossAtThreeReceivers() throws Exception {
        Result r = run(16, 4, 0, 0.10, 400);
        assertThat(r.decodes).as("blocks decoded from parity").isGreaterThan(50);
        assertThat(r.paritySent).as("parity sent in answer to NACKs").isGreaterThan(0);
    }

    @Test
    void proactiveParityRepairsWithoutAskingMostOfTheTime() throws Exception {
        Result proactive = run(16, 4, 2, 0.05, 300);
        Result reactive = run(16, 4, 0, 0.05, 300);
        System.out.printf("auto parity 2: %d NACKs, %d decodes; no auto parity: %d NACKs, %d decodes%n",
                proactive.nacks, proactive.decodes, reactive.nacks, reactive.decodes);
        assertThat(proactive.decodes).isGreaterThan(0);
        assertThat(proactive.nacks).as("proactive parity saves NACKs").isLessThan(reactive.nacks);
    }

    record Result(long decodes, long paritySent, long nacks) {
    }

    private Result run(int block, int parity, int autoParity, double loss, int objects) throws Exception {
        NormConfig base = TestGroups.fresh().toBuilder().blockSize(block).parity(parity).autoParity(autoParity)
                .segmentSize(1024).build();
        int[] sizes = TestObjects.logUniformSizes(objects, 10, 300_000, CONTENT_SEED + objects);
        long[] crcs = new long[objects];
        List<NormSession> rx = new ArrayList<>();
        List<ObjectCollector> got = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                ObjectCollector c = new ObjectCollector();
                got.add(c);
                rx.add(NormSession.open(base.toBuilder().nodeId(70 + i)
                        .rxLoss(LossInjector.random(loss, 900 + i, LossPredicates::isData)).build(), c, i));
            }
            try (NormSession tx = NormSession.open(base.toBuilder().nodeId(69).build(), null, 5)) {
                for (int i = 0; i < objects; i++) {
                    byte[] content = TestObjects.content(CONTENT_SEED, i, sizes[i]);
                    crcs[i] = ObjectCollector.crc(content);
                    assertThat(tx.sender().enqueue(Unpooled.wrappedBuffer(content), null, 4, 30, TimeUnit.SECONDS))
                            .isGreaterThanOrEqualTo(0);
                }
                long decodes = 0;
                long nacks = 0;
                for (int i = 0; i < 3; i++) {
                    ObjectCollector c = got.get(i);
                    assertThat(c.await(objects, 60, TimeUnit.SECONDS)).as("receiver %d (loss seed %d): %s; sender %s",
                            i, 900 + i, rx.get(i).counters(), tx.counters()).isTrue();
                    assertThat(c.lost()).isEmpty();
                    for (int o = 0; o < objects; o++) {
                        assertThat(c.received().get(o).crc()).as("object %d at receiver %d", o, i).isEqualTo(crcs[o]);
                    }
                    decodes += rx.get(i).counters().get(Counter.FEC_DECODES);
                    nacks += rx.get(i).counters().get(Counter.NACKS_SENT);
                }
                return new Result(decodes, tx.counters().get(Counter.PARITY_SENT), nacks);
            }
        } finally {
            rx.forEach(NormSession::close);
        }
    }
}
