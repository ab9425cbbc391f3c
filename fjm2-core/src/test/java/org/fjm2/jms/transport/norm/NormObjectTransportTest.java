package org.fjm2.jms.transport.norm;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.fjm2.jms.transport.ObjectListener;
import org.fjm2.jms.transport.ObjectTransport;
import org.fjm2.testkit.Await;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The NORM transport's sending side as the batcher uses it: the drained signal reaches the transmit listener (not
 * the receive listener), and trySend never waits — with the sender's cache full it refuses, and the caller keeps
 * the object. Loopback multicast: run in a network namespace with only lo (see the module README).
 */
class NormObjectTransportTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    @Test
    void drainedIsSignalledToTheTransmitListenerAndTrySendRefusesWhenTheCacheIsFull() throws Exception {
        int port = 30_000 + (int) (ProcessHandle.current().pid() % 20_000);
        URI uri = URI.create("norm://239.78.250." + (port % 250) + ":" + port);
        // A cache of two objects and no receiver that could acknowledge them: the third object finds no room.
        Map<String, String> parameters = Map.of("interface", "lo", "cacheObjects", "2", "closeLinger", "0.1");
        try (ObjectTransport transport = new NormTransportFactory().create(uri, parameters)) {
            AtomicInteger drained = new AtomicInteger();
            transport.transmitListener(drained::incrementAndGet);
            transport.start(new IgnoreReceived());

            assertThat(transport.trySend(object("one"), 0)).isTrue();
            Await.untilTrue("the drained signal", () -> drained.get() > 0, BOUND, drained::get);
            assertThat(transport.trySend(object("two"), 0)).isTrue();

            ByteBuf third = object("three");
            long start = System.nanoTime();
            assertThat(transport.trySend(third, 0)).as("a full cache refuses").isFalse();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("without waiting")
                    .isLessThan(Duration.ofSeconds(1));
            assertThat(third.refCnt()).as("the caller still owns the refused object").isEqualTo(1);
            third.release();
        }
    }

    private static ByteBuf object(String text) {
        return Unpooled.directBuffer().writeBytes(text.getBytes(StandardCharsets.UTF_8));
    }

    private static final class IgnoreReceived implements ObjectListener {
        @Override
        public void onObject(int senderNodeId, ByteBuf object) {
        }

        @Override
        public void onObjectsLost(int senderNodeId, int objectCount, String reason) {
        }

        @Override
        public void onSenderGone(int senderNodeId) {
        }
    }
}
