package org.fjm2.jms.norm;

import org.fjm2.testkit.ChildJvm;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.DatagramPacket;
import java.net.InetSocketAddress;
import java.net.MulticastSocket;
import java.net.NetworkInterface;
import java.net.URI;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.buffer.Unpooled;
import jakarta.jms.Connection;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.fjm2.jms.Fjm2ConnectionFactory;
import org.fjm2.norm.ForgedPackets;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.codec.NormWire;
import org.junit.jupiter.api.Test;

/**
 * Issue 14's hostile LAN: a JMS subscriber in a JVM with a 192 MiB heap, a publisher, and a node without any key
 * that forges thousands of sender ids, announces huge objects and squelches them, sends garbage objects and NACK
 * storms at the publisher, all the while the publisher sends. Every real message still arrives, in order, and the
 * subscriber's heap stays bounded.
 */
class HostileLanTest {

    static final int MESSAGES = 20_000;
    static final long SEED = Long.getLong("fjm2.test.seed", 20261125L);

    @Test
    void realTrafficSurvivesAKeylessAttackerAndHeapStaysBounded() throws Exception {
        String base = NormUrls.fresh();
        URI uri = URI.create(base);
        int publisherNode = 424_242;
        AtomicBoolean attacking = new AtomicBoolean(true);
        AtomicLong forged = new AtomicLong();
        Thread attacker = null;
        try (ChildJvm child = new ChildJvm("192m", SubscriberProcess.class, NormUrls.of(base, ""), "hostile",
                String.valueOf(MESSAGES))) {
            assertThat(child.awaitLine("READY", 30)).as("child subscribed").startsWith("READY");
            NormConfig target = NormConfig.builder(uri.getHost(), uri.getPort()).interfaceName("lo").build();
            attacker = new Thread(() -> attack(target, publisherNode, attacking, forged), "attacker");
            attacker.start();
            try (Connection c = new Fjm2ConnectionFactory(NormUrls.of(base, "nodeId=" + publisherNode))
                    .createConnection()) {
                Session s = c.createSession();
                MessageProducer p = s.createProducer(s.createTopic("hostile"));
                for (int i = 0; i < MESSAGES; i++) {
                    TextMessage m = s.createTextMessage("message " + i);
                    m.setIntProperty("seq", i);
                    p.send(m);
                }
                String result = child.awaitLine("DONE", 120);
                System.out.printf("hostile LAN (seed %d): %,d forged datagrams; subscriber: %s%n", SEED,
                        forged.get(), result);
                assertThat(result).as("subscriber result %s (seed %d); the end of its output:%n%s", result, SEED,
                        child.outputTail(60))
                        .startsWith("DONE " + MESSAGES + " ");
                long heapAfterGc = Long.parseLong(result.replaceAll(".*heapAfterGcMiB=(\\d+).*", "$1"));
                assertThat(heapAfterGc).as("subscriber heap after GC, MiB").isLessThan(128);
                assertThat(forged.get()).as("the attack ran").isGreaterThan(10_000);
            }
            assertThat(child.awaitExit(30)).isZero();
        } finally {
            attacking.set(false);
            if (attacker != null) {
                attacker.join(10_000);
            }
        }
    }

    /** Forged sender ids, huge-object announcements and squelches, garbage objects, NACK storms at the publisher. */
    private static void attack(NormConfig target, int publisherNode, AtomicBoolean attacking, AtomicLong forged) {
        SplittableRandom random = new SplittableRandom(SEED);
        try (ForgedPackets out = new ForgedPackets(target)) {
            int instance = sniffInstance(target, publisherNode);
            byte[] garbage = new byte[900];
            for (long round = 0; attacking.get(); round++) {
                int source = 0x7000_0000 | random.nextInt(1 << 20);
                out.send(ForgedPackets.hugeObjectAnnouncement(source, random.nextInt(1 << 16)));
                out.send(ForgedPackets.squelch(source, 1, random.nextInt(1 << 16)));
                out.send(ForgedPackets.eot(0x6000_0000 | random.nextInt(1 << 20)));
                random.nextBytes(garbage);
                // A one-segment object of garbage: complete on arrival, handed to the JMS decoder.
                out.send(ForgedPackets.data(source, 1, 0, NormWire.FEC_RS8, 8, garbage.length, garbage.length, 1,
                        0, 0, 0, garbage.length));
                forged.addAndGet(4);
                if (round % 8 == 0) {
                    out.send(ForgedPackets.nack(source, publisherNode, instance, NormWire.FEC_RS8, 8, w -> {
                        for (int r = 0; r < 80; r++) {
                            w.open(NormWire.FORM_RANGES, NormWire.REPAIR_OBJECT);
                            w.range(random.nextInt(1 << 16), 0, 0, random.nextInt(1 << 16), 0, 0, 64);
                            w.close();
                        }
                    }));
                    forged.incrementAndGet();
                }
                if (round % 64 == 0) {
                    Thread.sleep(1);     // a few thousand datagrams a second: an attack, not a bandwidth test
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The publisher's NORM instance id, read off one of its datagrams (what a node on the LAN sees). */
    private static int sniffInstance(NormConfig target, int publisherNode) throws java.io.IOException {
        try (MulticastSocket listen = new MulticastSocket(target.port())) {
            listen.joinGroup(new InetSocketAddress(target.group(), target.port()), NetworkInterface.getByName("lo"));
            listen.setSoTimeout(30_000);
            byte[] buf = new byte[65_536];
            while (true) {
                DatagramPacket p = new DatagramPacket(buf, buf.length);
                listen.receive(p);
                io.netty.buffer.ByteBuf d = Unpooled.wrappedBuffer(buf, 0, p.getLength());
                int type = d.getUnsignedByte(0) & 0x0F;
                if (p.getLength() >= 16 && d.getInt(4) == publisherNode
                        && (type == NormWire.TYPE_DATA || type == NormWire.TYPE_CMD)) {
                    return d.getUnsignedShort(8);
                }
            }
        }
    }
}
