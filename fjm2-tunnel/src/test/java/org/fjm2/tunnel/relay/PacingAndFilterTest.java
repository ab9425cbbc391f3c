package org.fjm2.tunnel.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The pacer keeps the link rate and its queue bound; the duplicate filter forgets oldest first. */
class PacingAndFilterTest {

    @Test
    void pacerSendsAtTheRateInVirtualTime() {
        long rate = 8_000_000;                                // 1 MB/s: a 972+28-byte datagram every 1 ms
        WanPacer pacer = new WanPacer(rate, 0, 1 << 20);
        List<Long> sentAt = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            assertThat(pacer.offer(Unpooled.buffer(972).writerIndex(972), false)).isTrue();
        }
        long now = 0;
        while (!pacer.isEmpty()) {
            long t = now;
            long next = pacer.drain(now, frame -> {
                sentAt.add(t);
                frame.release();
            });
            now = next;
        }
        assertThat(sentAt).hasSize(100);
        assertThat(sentAt.get(99) - sentAt.get(0)).as("99 gaps of 1 ms").isEqualTo(99_000_000L);
    }

    @Test
    void pacerRefusesWhatDoesNotFitAndSendsUrgentFirst() {
        WanPacer pacer = new WanPacer(8_000_000, 0, 3000);
        ByteBuf a = Unpooled.buffer(1000).writerIndex(1000);
        ByteBuf b = Unpooled.buffer(1000).writerIndex(1000);
        ByteBuf c = Unpooled.buffer(1000).writerIndex(1000);
        ByteBuf d = Unpooled.buffer(1000).writerIndex(1000);
        assertThat(pacer.offer(a, false)).isTrue();
        assertThat(pacer.offer(b, false)).isTrue();
        assertThat(pacer.offer(c, true)).isTrue();
        assertThat(pacer.offer(d, false)).as("queue full").isFalse();
        List<ByteBuf> order = new ArrayList<>();
        long now = 0;
        while (!pacer.isEmpty()) {
            now = pacer.drain(now, order::add);
        }
        assertThat(order).containsExactly(c, a, b);
        assertThat(pacer.queuedBytes()).isZero();
    }

    @Test
    void filterRecognisesRecentPacketsAndForgetsTheOldest() {
        RecentPacketFilter filter = new RecentPacketFilter(1024);
        long seed = 99;
        SplittableRandom random = new SplittableRandom(seed);
        long[] hashes = new long[3000];
        for (int i = 0; i < hashes.length; i++) {
            hashes[i] = random.nextLong();
            assertThat(filter.firstSighting(hashes[i])).as("seed %d, hash %d", seed, i).isTrue();
            assertThat(filter.firstSighting(hashes[i])).isFalse();
        }
        assertThat(filter.size()).isEqualTo(1024);
        assertThat(filter.contains(hashes[2999 - 1023])).isTrue();
        assertThat(filter.contains(hashes[2999 - 1024])).isFalse();
    }

    @Test
    void hashTellsDifferentPacketsApartAndCopiesAlike() {
        byte[] p = new byte[1400];
        new SplittableRandom(5).nextBytes(p);
        ByteBuf one = Unpooled.wrappedBuffer(p.clone());
        ByteBuf copy = Unpooled.directBuffer(1410).writeZero(10).writeBytes(p);
        assertThat(PacketHash.hash(one, 0, 1400, 42)).isEqualTo(PacketHash.hash(copy, 10, 1400, 42));
        for (int i = 0; i < 1400; i += 97) {
            byte[] q = p.clone();
            q[i] ^= 1;
            assertThat(PacketHash.hash(Unpooled.wrappedBuffer(q), 0, 1400, 42)).as("byte %d changed", i)
                    .isNotEqualTo(PacketHash.hash(one, 0, 1400, 42));
        }
        assertThat(PacketHash.hash(one, 0, 1399, 42)).isNotEqualTo(PacketHash.hash(one, 0, 1400, 42));
    }
}
