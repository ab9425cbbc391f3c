package org.fjm2.norm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.Unpooled;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.transport.LossInjector;
import org.fjm2.norm.transport.LossyTransport;
import org.junit.jupiter.api.Test;

/**
 * One sender, three receivers in one JVM on loopback multicast: 2,000 objects of mixed sizes (100 B to 1 MB) reach
 * every receiver complete, byte-identical, in order and exactly once, with independent seeded 10% receive loss at
 * each receiver, and again with 10% send loss, and with the largest segment size (64 KB datagrams, as on loopback
 * or with jumbo frames).
 */
class ReliableDeliveryTest {

    static final int OBJECTS = Integer.getInteger("fjm2.test.objects", 2000);
    static final long CONTENT_SEED = 20261122L;

    @Test
    void threeReceiversWithIndependentTenPercentReceiveLoss() throws Exception {
        run(new long[] {101, 102, 103}, -1, NormConfig.DEFAULT_SEGMENT_SIZE);
    }

    @Test
    void threeReceiversWithTenPercentSendLoss() throws Exception {
        run(null, 201, NormConfig.DEFAULT_SEGMENT_SIZE);
    }

    @Test
    void largestSegmentsWithIndependentTenPercentReceiveLoss() throws Exception {
        run(new long[] {301, 302, 303}, -1, NormConfig.MAX_SEGMENT_SIZE);
    }

    private void run(long[] rxSeeds, long txSeed, int segmentSize) throws Exception {
        NormConfig base = TestGroups.fresh().toBuilder().segmentSize(segmentSize).build();
        int[] sizes = TestObjects.logUniformSizes(OBJECTS, 100, 1024 * 1024, CONTENT_SEED);
        long[] crcs = new long[OBJECTS];
        List<NormSession> receivers = new ArrayList<>();
        List<ObjectCollector> collectors = new ArrayList<>();
        String seeds = "rx loss seeds " + java.util.Arrays.toString(rxSeeds) + ", tx loss seed " + txSeed
                + ", segment size " + segmentSize;
        NormSession sender = null;
        try {
            for (int r = 0; r < 3; r++) {
                ObjectCollector collector = new ObjectCollector();
                LossInjector loss = rxSeeds == null ? LossInjector.NONE : LossInjector.random(0.10, rxSeeds[r]);
                receivers.add(NormSession.open(base.toBuilder().nodeId(100 + r).build(), collector, 1000 + r,
                        LossyTransport.around(loss, null)));
                collectors.add(collector);
            }
            LossInjector txLoss = txSeed >= 0 ? LossInjector.random(0.10, txSeed) : LossInjector.NONE;
            sender = NormSession.open(base.toBuilder().nodeId(1).build(), null, 7, LossyTransport.around(null, txLoss));
            for (int i = 0; i < OBJECTS; i++) {
                byte[] content = TestObjects.content(CONTENT_SEED, i, sizes[i]);
                crcs[i] = ObjectCollector.crc(content);
                long ticket = sender.enqueue(Unpooled.wrappedBuffer(content), null, 4, 60, TimeUnit.SECONDS);
                assertThat(ticket).as("enqueue %d did not time out (%s)", i, seeds).isGreaterThanOrEqualTo(0);
            }
            for (int r = 0; r < 3; r++) {
                ObjectCollector c = collectors.get(r);
                boolean done = c.await(OBJECTS, 120, TimeUnit.SECONDS);
                assertThat(done).as("receiver %d got %d of %d (%s); sender %s; receiver %s", r, c.count(), OBJECTS,
                        seeds, sender.counters(), receivers.get(r).counters()).isTrue();
                assertThat(c.lost()).as("lost objects at receiver %d (%s)", r, seeds).isEmpty();
                List<ObjectCollector.Received> got = c.received();
                assertThat(got).hasSize(OBJECTS);
                for (int i = 0; i < OBJECTS; i++) {
                    ObjectCollector.Received o = got.get(i);
                    assertThat(o.size()).as("size of object %d at receiver %d (%s)", i, r, seeds).isEqualTo(sizes[i]);
                    assertThat(o.crc()).as("content of object %d at receiver %d (%s)", i, r, seeds).isEqualTo(crcs[i]);
                }
                assertThat(got.stream().map(ObjectCollector.Received::objectId).distinct().count())
                        .as("no duplicates").isEqualTo(OBJECTS);
            }
            System.out.printf("%s: sender %s%n", seeds, sender.counters());
            for (int r = 0; r < 3; r++) {
                System.out.printf("receiver %d: %s%n", r, receivers.get(r).counters());
            }
        } finally {
            if (sender != null) {
                sender.close();
            }
            receivers.forEach(NormSession::close);
        }
    }
}
