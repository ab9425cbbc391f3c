package org.fjm2.tunnel;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.fjm2.norm.NormSession;
import org.fjm2.norm.api.LossReason;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormListener;
import org.fjm2.norm.api.RemoteSenderInfo;

/**
 * A NORM publisher or subscriber for tests in network namespaces (the JMS layer stands in for itself later):
 * {@code send GROUP:PORT IF NODE COUNT SIZE RATE} publishes COUNT numbered messages (objects whose first 4 bytes are
 * their index, the rest seeded by it); {@code recv GROUP:PORT IF NODE COUNT TIMEOUT_S} checks that every message
 * arrives complete, in order (per sender) and once, and prints
 * {@code RESULT complete=B received=N inorder=N corrupt=N lost=N senders=N}.
 */
public final class NormPeerMain {

    private NormPeerMain() {
    }

    public static void main(String[] args) throws Exception {
        String[] gp = args[1].split(":");
        NormConfig config = NormConfig.builder(gp[0], Integer.parseInt(gp[1])).interfaceName(args[2])
                .nodeId(Integer.parseInt(args[3])).txRate(args[0].equals("send") ? Long.parseLong(args[6]) : 10_000_000L)
                .grttInitial(Duration.ofMillis(5))
                // These tests measure relaying, not dead-receiver detection (DeadReceiverTest does): a live receiver
                // three daemons away on a loaded 2-core machine can be quiet longer than the default silence, and a
                // sender that stops waiting for it may close before its tail is repaired (112 of 9,000 lost once).
                .receiverSilence(NormConfig.DEFAULT_RECEIVER_TIMEOUT).build();
        if (args[0].equals("send")) {
            send(config, Integer.parseInt(args[4]), Integer.parseInt(args[5]));
        } else {
            receive(config, Integer.parseInt(args[4]), Integer.parseInt(args[5]));
        }
        System.exit(0);
    }

    static byte[] message(int index, int size) {
        byte[] b = new byte[Math.max(size, 4)];
        new SplittableRandom(index * 0x9E3779B97F4A7C15L).nextBytes(b);
        b[0] = (byte) (index >>> 24);
        b[1] = (byte) (index >>> 16);
        b[2] = (byte) (index >>> 8);
        b[3] = (byte) index;
        return b;
    }

    private static void send(NormConfig config, int count, int size) throws Exception {
        try (NormSession session = NormSession.open(config, null, config.nodeId())) {
            System.out.println("READY sender " + config.nodeId());
            for (int i = 0; i < count; i++) {
                if (session.enqueue(Unpooled.wrappedBuffer(message(i, size)), null, 4, 60, TimeUnit.SECONDS)
                        < 0) {
                    System.out.println("FAILED enqueue " + i);
                    return;
                }
                if ((i + 1) % 5000 == 0) {
                    System.out.println("SENT " + (i + 1));
                }
            }
            System.out.println("FLUSHED " + session.awaitFlushed(Duration.ofSeconds(60)) + " " + session.counters());
            Thread.sleep(2000);     // answer late NACKs before closing
        }
    }

    private static void receive(NormConfig config, int count, int timeoutSeconds) throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        int[] stats = new int[4];      // received, in order, corrupt, lost
        java.util.Map<Integer, int[]> nextIndex = new java.util.HashMap<>();    // per sender: next index expected
        NormListener listener = new NormListener() {
            @Override
            public void onObjectReceived(RemoteSenderInfo sender, int objectId, ByteBuf data, ByteBuf info) {
                int index = data.readableBytes() >= 4 ? data.getInt(data.readerIndex()) : -1;
                int[] next = nextIndex.computeIfAbsent(sender.nodeId(), k -> new int[1]);
                if (index == next[0]) {
                    stats[1]++;
                }
                next[0] = index + 1;
                byte[] expected = message(Math.max(index, 0), data.readableBytes());
                CRC32 a = new CRC32();
                a.update(expected);
                CRC32 b = new CRC32();
                b.update(data.nioBuffer(data.readerIndex(), data.readableBytes()));
                if (index < 0 || a.getValue() != b.getValue()) {
                    stats[2]++;
                }
                stats[0]++;
                if (stats[0] + stats[3] >= count) {
                    done.countDown();
                }
            }

            @Override
            public void onObjectLost(RemoteSenderInfo sender, int objectId, LossReason reason) {
                stats[3]++;
                if (stats[0] + stats[3] >= count) {
                    done.countDown();
                }
            }
        };
        try (NormSession session = NormSession.open(config, listener, config.nodeId())) {
            System.out.println("READY receiver " + config.nodeId());
            boolean complete = done.await(timeoutSeconds, TimeUnit.SECONDS);
            int[] s = session.call(stats::clone);
            int senders = session.call(nextIndex::size);
            System.out.printf("RESULT complete=%s received=%d inorder=%d corrupt=%d lost=%d senders=%d%n", complete,
                    s[0], s[1], s[2], s[3], senders);
            Thread.sleep(1000);     // acknowledge the sender's last flushes
        }
    }
}
