package org.fjm2.jms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.fjm2.jms.wire.BatchFraming;
import org.fjm2.jms.wire.BatchHeaderFlyweight;
import org.fjm2.jms.wire.ControlRecords;
import org.fjm2.jms.wire.MessageHeaderFlyweight;
import org.fjm2.jms.wire.StoreAckFlyweight;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * storeQuorum's bookkeeping, fed acknowledgement records built with the store's writer: ranges count for the sends
 * they cover, whoever else they name is ignored, an acknowledgement before the wait counts, and a missing quorum
 * names the stores that answered.
 */
class StoreQuorumTest {

    static final int NODE = 77;
    static final long EPOCH = 1234;

    /** One ack record as a store multicasts it, wrapped for reading. */
    static StoreAckFlyweight ack(String store, long... entries) throws Exception {
        ByteBuf batch = Unpooled.buffer();
        BatchHeaderFlyweight.writeEmpty(batch, 5);
        int start = StoreAckFlyweight.beginRecord(batch, 1, 0, store);
        for (int i = 0; i < entries.length; i += 5) {
            StoreAckFlyweight.writeEntry(batch, (int) entries[i], entries[i + 1], (int) entries[i + 2],
                    (int) entries[i + 3], entries[i + 4] >> 32, entries[i + 4] & 0xFFFFFFFFL);
        }
        StoreAckFlyweight.endRecord(batch, start, entries.length / 5);
        new BatchHeaderFlyweight().wrap(batch, 0).recordCount(1);
        int record = BatchFraming.check(batch, new BatchHeaderFlyweight());
        MessageHeaderFlyweight header = new MessageHeaderFlyweight().wrap(batch, record);
        assertThat(ControlRecords.isAck(batch, header.topicOffset(), header.topicLength())).isTrue();
        return new StoreAckFlyweight().wrap(batch, record, header.recordLength());
    }

    static long range(long first, long last) {
        return first << 32 | last;
    }

    @Test
    void aRangeCountsForTheSendsItCoversOnly() throws Exception {
        StoreQuorum q = new StoreQuorum(1, NODE, EPOCH);
        q.onAck(9, ack("a", NODE, EPOCH, 1, 4, range(1, 10)));
        q.await("m", 1, 4, 10, 0);
        assertThatThrownBy(() -> q.await("m11", 1, 4, 11, 50)).hasMessageContaining("m11")
                .hasMessageContaining("acknowledged by 0").hasMessageContaining("stores heard on the group: a (node 9)");
        assertThatThrownBy(() -> q.await("other priority", 1, 5, 3, 10)).hasMessageContaining("acknowledged by 0");
    }

    @Test
    void entriesOfOtherConnectionsAreIgnored() throws Exception {
        StoreQuorum q = new StoreQuorum(1, NODE, EPOCH);
        q.onAck(9, ack("a", NODE + 1, EPOCH, 1, 4, range(1, 10), NODE, EPOCH + 1, 1, 4, range(1, 10)));
        assertThatThrownBy(() -> q.await("m", 1, 4, 5, 10)).hasMessageContaining("acknowledged by 0");
    }

    @Test
    void aQuorumNeedsDistinctStoresAndAWaitEndsWhenTheLastOneAnswers() throws Exception {
        StoreQuorum q = new StoreQuorum(2, NODE, EPOCH);
        q.onAck(9, ack("a", NODE, EPOCH, 1, 4, range(1, 3)));
        q.onAck(9, ack("a", NODE, EPOCH, 1, 4, range(4, 6)));
        CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> {
            try {
                q.await("m", 1, 4, 5, 20_000);
            } catch (jakarta.jms.JMSException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThatThrownBy(() -> waiting.get(200, TimeUnit.MILLISECONDS))
                .isInstanceOf(java.util.concurrent.TimeoutException.class);
        q.onAck(10, ack("b", NODE, EPOCH, 1, 4, range(2, 5)));
        waiting.get(10, TimeUnit.SECONDS);
        assertThatThrownBy(() -> q.await("m6", 1, 4, 6, 10)).hasMessageContaining("acknowledged by 1 a (node 9)");
    }

    @Test
    void rangesThatTouchAreJoinedAndTheOldestGoBeyondTheCap() throws Exception {
        StoreQuorum q = new StoreQuorum(1, NODE, EPOCH);
        for (int i = 0; i < StoreQuorum.MAX_RANGES_PER_STREAM + 1; i++) {
            q.onAck(9, ack("a", NODE, EPOCH, 1, 4, range(10L * i + 1, 10L * i + 5)));
        }
        q.await("newest", 1, 4, 10L * StoreQuorum.MAX_RANGES_PER_STREAM + 3, 0);
        assertThatThrownBy(() -> q.await("oldest", 1, 4, 3, 10)).hasMessageContaining("acknowledged by 0");
        q.onAck(9, ack("a", NODE, EPOCH, 1, 4, range(46, 100)));
        q.await("joined", 1, 4, 60, 0);
    }

    @Test
    void withoutAQuorumNothingIsRecorded() throws Exception {
        StoreQuorum q = new StoreQuorum(0, NODE, EPOCH);
        assertThat(q.required()).isFalse();
        q.onAck(9, ack("a", NODE, EPOCH, 1, 4, range(1, 10)));
    }

    @Test
    void aMalformedAckIsRefused() {
        ByteBuf batch = Unpooled.buffer();
        int start = StoreAckFlyweight.beginRecord(batch, 1, 0, "a");
        StoreAckFlyweight.endRecord(batch, start, 0);
        batch.writerIndex(batch.writerIndex() - 1);
        batch.setInt(start, batch.writerIndex() - start);
        assertThatThrownBy(() -> new StoreAckFlyweight().wrap(batch, start, batch.writerIndex() - start))
                .hasMessageContaining("store acknowledgement");
    }
}
