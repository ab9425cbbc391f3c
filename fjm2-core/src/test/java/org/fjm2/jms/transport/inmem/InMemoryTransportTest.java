package org.fjm2.jms.transport.inmem;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.fjm2.jms.transport.ObjectListener;
import org.fjm2.jms.transport.ObjectTransport;
import org.fjm2.jms.transport.TransmitListener;
import org.fjm2.testkit.Await;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The transport SPI contract, as the in-memory transport keeps it. */
class InMemoryTransportTest {

    private static final AtomicInteger GROUPS = new AtomicInteger();
    private final InMemoryTransportFactory factory = new InMemoryTransportFactory();

    private ObjectTransport open(String group, Map<String, String> params) throws Exception {
        return factory.create(URI.create("inmem://" + group), params);
    }

    private static ByteBuf text(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.UTF_8);
    }

    @Test
    void objectsReachEveryOtherMemberInOrderButNotTheSender() throws Exception {
        String group = "spi-" + GROUPS.incrementAndGet();
        try (ObjectTransport a = open(group, Map.of()); ObjectTransport b = open(group, Map.of());
             ObjectTransport c = open(group, Map.of())) {
            assertThat(List.of(a.localNodeId(), b.localNodeId(), c.localNodeId())).doesNotHaveDuplicates();
            Recorder ra = new Recorder(0);
            Recorder rb = new Recorder(100);
            Recorder rc = new Recorder(100);
            a.start(ra);
            b.start(rb);
            c.start(rc);
            for (int i = 0; i < 100; i++) {
                assertThat(a.send(text("o" + i), 4, 5, TimeUnit.SECONDS)).isTrue();
            }
            assertThat(rb.done.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(rc.done.await(10, TimeUnit.SECONDS)).isTrue();
            for (int i = 0; i < 100; i++) {
                assertThat(rb.objects.get(i)).isEqualTo(a.localNodeId() + ":o" + i);
            }
            assertThat(ra.objects).isEmpty();
            assertThat(a.counters().objectsSent()).isEqualTo(100);
            assertThat(b.counters().objectsReceived()).isEqualTo(100);
        }
    }

    @Test
    void sendBlocksWhenTheQueueIsFullAndTimesOut() throws Exception {
        String group = "spi-" + GROUPS.incrementAndGet();
        CountDownLatch release = new CountDownLatch(1);
        try (ObjectTransport a = open(group, Map.of("transmitQueueObjects", "2"));
             ObjectTransport b = open(group, Map.of("receiveQueueObjects", "1"))) {
            Recorder blocked = new Recorder(1) {
                @Override
                public void onObject(int sender, ByteBuf object) {
                    super.onObject(sender, object);
                    try {
                        release.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            };
            a.start(new Recorder(0));
            b.start(blocked);
            int accepted = 0;
            boolean timedOut = false;
            for (int i = 0; i < 10 && !timedOut; i++) {
                if (a.send(text("x" + i), 0, 100, TimeUnit.MILLISECONDS)) {
                    accepted++;
                } else {
                    timedOut = true;
                }
            }
            assertThat(timedOut).as("back-pressure: a full transmit queue makes send() time out").isTrue();
            assertThat(accepted).isBetween(2, 5);
            assertThat(a.pendingObjects()).isEqualTo(2);
            release.countDown();
        }
    }

    @Test
    void trySendNeverWaitsAndLeavesAnObjectItCouldNotQueueToTheCaller() throws Exception {
        String group = "spi-" + GROUPS.incrementAndGet();
        CountDownLatch release = new CountDownLatch(1);
        try (ObjectTransport a = open(group, Map.of("transmitQueueObjects", "2"));
             ObjectTransport b = open(group, Map.of("receiveQueueObjects", "1"))) {
            Recorder blocked = new Recorder(1) {
                @Override
                public void onObject(int sender, ByteBuf object) {
                    super.onObject(sender, object);
                    try {
                        release.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            };
            a.start(new Recorder(0));
            b.start(blocked);
            ByteBuf refused = null;
            for (int i = 0; i < 10 && refused == null; i++) {
                ByteBuf object = text("x" + i);
                if (!a.trySend(object, 0)) {
                    refused = object;
                }
            }
            assertThat(refused).as("a full transmit queue refuses without waiting").isNotNull();
            assertThat(refused.refCnt()).as("the caller still owns what was refused").isEqualTo(1);
            assertThat(a.pendingObjects()).as("the bound holds").isLessThanOrEqualTo(2);
            release.countDown();
            ByteBuf retry = refused;
            Await.untilTrue("the refused object queued once there is room", () -> a.trySend(retry, 0),
                    Duration.ofSeconds(10), a::pendingObjects);
        }
    }

    @Test
    void injectedLossIsReportedToTheReceiverThatLostAndIsReproducible() throws Exception {
        int[] first = lossPattern(1234);
        int[] second = lossPattern(1234);
        assertThat(first[0]).as("some objects lost").isPositive();
        assertThat(first[0] + first[1]).isEqualTo(500);
        assertThat(second).containsExactly(first);
    }

    private int[] lossPattern(long seed) throws Exception {
        String group = "spi-" + GROUPS.incrementAndGet();
        Map<String, String> lossy = Map.of("lossRate", "0.1", "seed", Long.toString(seed));
        try (ObjectTransport a = open(group, lossy); ObjectTransport b = open(group, Map.of())) {
            Recorder rb = new Recorder(500);
            a.start(new Recorder(0));
            b.start(rb);
            for (int i = 0; i < 500; i++) {
                a.send(text("o" + i), 4, 5, TimeUnit.SECONDS);
            }
            assertThat(rb.done.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(b.counters().objectsLost()).isEqualTo(rb.lost.get());
            return new int[] {rb.lost.get(), rb.objects.size()};
        }
    }

    @Test
    void idleIsSignalledAndLeavingMembersAreReportedGone() throws Exception {
        String group = "spi-" + GROUPS.incrementAndGet();
        ObjectTransport a = open(group, Map.of());
        try (ObjectTransport b = open(group, Map.of())) {
            Recorder ra = new Recorder(0);
            Recorder rb = new Recorder(1);
            a.transmitListener(ra);
            a.start(ra);
            b.start(rb);
            a.send(text("x"), 9, 1, TimeUnit.SECONDS);
            assertThat(ra.idle.await(10, TimeUnit.SECONDS)).isTrue();
            int id = a.localNodeId();
            a.close();
            assertThat(rb.gone.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(rb.goneNode.get()).isEqualTo(id);
            assertThatThrownBy(() -> a.send(text("late"), 1, 1, TimeUnit.SECONDS))
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> b.send(Unpooled.buffer(b.maxObjectSize() + 1).writerIndex(b.maxObjectSize() + 1),
                    1, 1, TimeUnit.SECONDS)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("maxObjectSize");
        }
    }

    private static class Recorder implements ObjectListener, TransmitListener {
        final List<String> objects = new CopyOnWriteArrayList<>();
        final AtomicInteger lost = new AtomicInteger();
        final AtomicInteger goneNode = new AtomicInteger();
        final CountDownLatch done;
        final CountDownLatch idle = new CountDownLatch(1);
        final CountDownLatch gone = new CountDownLatch(1);

        Recorder(int expected) {
            done = new CountDownLatch(expected);
        }

        @Override
        public void onObject(int sender, ByteBuf object) {
            objects.add(sender + ":" + object.toString(StandardCharsets.UTF_8));
            done.countDown();
        }

        @Override
        public void onObjectsLost(int sender, int count, String reason) {
            lost.addAndGet(count);
            for (int i = 0; i < count; i++) {
                done.countDown();
            }
        }

        @Override
        public void onSenderGone(int sender) {
            goneNode.set(sender);
            gone.countDown();
        }

        @Override
        public void onTransmitIdle() {
            idle.countDown();
        }
    }
}
