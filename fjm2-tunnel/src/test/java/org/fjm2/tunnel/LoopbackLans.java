package org.fjm2.tunnel;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.netty.buffer.Unpooled;
import org.fjm2.norm.NormSession;
import org.fjm2.norm.ObjectCollector;
import org.fjm2.norm.TestGroups;
import org.fjm2.norm.TestObjects;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.testkit.Await;
import org.fjm2.tunnel.relay.RelayCounters;
import org.fjm2.tunnel.security.TunnelKey;

/**
 * "LANs" on one host for tests: each LAN is its own multicast group and port on loopback, and each has an FJM2D
 * listening on an ephemeral port of 127.0.0.1. Without the daemons, nothing crosses from one LAN to another.
 */
public final class LoopbackLans {

    public static final TunnelKey KEY = TunnelKey.of("test secret shared by the peers".getBytes(StandardCharsets.UTF_8));

    private LoopbackLans() {
    }

    /** A fresh LAN: its NORM settings (group, port, interface lo), for sessions with a node id of their own. */
    public static NormConfig lan() {
        return TestGroups.fresh().toBuilder()
                .txRate(50_000_000L)
                .grttInitial(Duration.ofMillis(5))
                .build();
    }

    /** A daemon on {@code lan}, its WAN port ephemeral on 127.0.0.1, no peers yet. */
    public static TunnelDaemon tunnel(NormConfig lan, String nodeId, Consumer<TunnelConfig.Builder> tweak)
            throws IOException {
        TunnelConfig.Builder b = TunnelConfig.builder(lan.group().getHostAddress(), lan.port())
                .interfaceName("lo")
                .listen(new InetSocketAddress("127.0.0.1", 0))
                .nodeId(nodeId)
                .key(KEY)
                .statusInterval(Duration.ZERO);
        if (tweak != null) {
            tweak.accept(b);
        }
        return TunnelDaemon.start(b.build());
    }

    public static InetSocketAddress wanAddress(TunnelDaemon d) {
        return new InetSocketAddress("127.0.0.1", d.listenPort());
    }

    /** What a sender sent: the size and CRC of each object, in order. */
    public record Sent(int senderId, int[] sizes, long[] crcs) {
        public int count() {
            return sizes.length;
        }
    }

    /** Enqueues {@code count} deterministic objects (sizes log-uniform in [min, max]) on {@code sender}. */
    public static Sent send(NormSession sender, int count, int min, int max, long seed) throws InterruptedException {
        int[] sizes = TestObjects.logUniformSizes(count, min, max, seed);
        long[] crcs = new long[count];
        for (int i = 0; i < count; i++) {
            byte[] content = TestObjects.content(seed, i, sizes[i]);
            crcs[i] = ObjectCollector.crc(content);
            if (sender.enqueue(Unpooled.wrappedBuffer(content), null, 4, 60, TimeUnit.SECONDS) < 0) {
                throw new AssertionError("enqueue of object " + i + " timed out");
            }
        }
        return new Sent(sender.nodeId(), sizes, crcs);
    }

    /** Asserts that {@code collector} got every object of {@code sent}, in order, exactly once, nothing lost. */
    public static void assertReceivedAll(ObjectCollector collector, Sent sent, String what) {
        List<ObjectCollector.Received> got = collector.received().stream()
                .filter(r -> r.senderId() == sent.senderId()).toList();
        assertThat(collector.lost().stream().filter(l -> l.senderId() == sent.senderId()).toList())
                .as("objects of sender %d lost at %s", sent.senderId(), what).isEmpty();
        assertThat(got).as("objects of sender %d at %s", sent.senderId(), what).hasSize(sent.count());
        for (int i = 0; i < sent.count(); i++) {
            assertThat(got.get(i).size()).as("size of object %d of sender %d at %s", i, sent.senderId(), what)
                    .isEqualTo(sent.sizes()[i]);
            assertThat(got.get(i).crc()).as("content of object %d of sender %d at %s", i, sent.senderId(), what)
                    .isEqualTo(sent.crcs()[i]);
        }
    }

    /** Waits (bounded) until {@code collector} holds {@code count} objects of {@code senderId}. */
    public static boolean awaitFrom(ObjectCollector collector, int senderId, int count, long seconds)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() - deadline < 0) {
            long n = collector.received().stream().filter(r -> r.senderId() == senderId).count()
                    + collector.lost().stream().filter(l -> l.senderId() == senderId).count();
            if (n >= count) {
                return true;
            }
            collector.await(collector.count() + collector.lost().size() + 1, 200, TimeUnit.MILLISECONDS);
        }
        return false;
    }

    /**
     * Greetings a daemon may refuse as from an unknown peer while a test introduces the daemons to each other: they get
     * their peer lists one after the other, so the first greetings can arrive before the receiver lists the sender.
     */
    public static final long EARLY_GREETINGS = 4;

    /** Asserts that {@code d} refused nothing but early greetings (no forgery, replay or misdirected frame). */
    public static void assertNothingRefused(TunnelDaemon d, String context) {
        RelayCounters c = d.counters();
        long early = c.get(RelayCounters.Counter.UNKNOWN_PEER);
        assertThat(c.rejected() - early).as("frames refused by %s: %s; %s", d.config().nodeId(), c, context).isZero();
        assertThat(early).as("early greetings refused by %s: %s", d.config().nodeId(), context)
                .isLessThanOrEqualTo(EARLY_GREETINGS);
    }

    /**
     * Makes every daemon a static peer of every other (a full mesh) and waits until every peer answered: data flows
     * only to peers that did.
     */
    public static void fullMesh(TunnelDaemon... daemons) throws IOException, InterruptedException {
        for (TunnelDaemon d : daemons) {
            List<InetSocketAddress> others = new ArrayList<>();
            for (TunnelDaemon o : daemons) {
                if (o != d) {
                    others.add(wanAddress(o));
                }
            }
            d.setStaticPeers(others);
        }
        awaitAnswering(daemons);
    }

    /** Waits (bounded) until every peer of every daemon answered its hellos. */
    public static void awaitAnswering(TunnelDaemon... daemons) throws InterruptedException {
        Await.untilTrue("every peer answering", () -> Arrays.stream(daemons).allMatch(TunnelDaemon::allPeersAnswering),
                Duration.ofSeconds(20),
                () -> Arrays.stream(daemons).map(TunnelDaemon::getStatusLine).toList());
    }
}
