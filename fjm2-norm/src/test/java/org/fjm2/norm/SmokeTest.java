package org.fjm2.norm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormListener;
import org.fjm2.norm.api.RemoteSenderInfo;
import org.junit.jupiter.api.Test;

class SmokeTest {

    @Test
    void oneObjectArrives() throws Exception {
        NormConfig base = TestGroups.fresh();
        CountDownLatch got = new CountDownLatch(1);
        byte[][] received = new byte[1][];
        NormListener listener = new NormListener() {
            @Override
            public void onObjectReceived(RemoteSenderInfo sender, int objectId, ByteBuf data, ByteBuf info) {
                byte[] b = new byte[data.readableBytes()];
                data.getBytes(data.readerIndex(), b);
                received[0] = b;
                got.countDown();
            }
        };
        try (NormSession rx = NormSession.open(base.toBuilder().nodeId(2).build(), listener, 1);
             NormSession tx = NormSession.open(base.toBuilder().nodeId(1).build(), null, 2)) {
            byte[] payload = new byte[5000];
            for (int i = 0; i < payload.length; i++) {
                payload[i] = (byte) i;
            }
            tx.enqueue(Unpooled.wrappedBuffer(payload), null, 4, 1, TimeUnit.SECONDS);
            assertThat(got.await(5, TimeUnit.SECONDS)).as("object received; tx %s rx %s", tx.counters(), rx.counters()).isTrue();
            assertThat(received[0]).isEqualTo(payload);
        }
    }
}
