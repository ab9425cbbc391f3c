package org.fjm2.tunnel.repair;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import org.fjm2.norm.codec.FeedbackFlyweight;
import org.fjm2.norm.codec.NormPacketValidator;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.ObjectMessageFlyweight;
import org.fjm2.norm.codec.RepairRequestReader;
import org.fjm2.norm.codec.RepairRequestWriter;
import org.fjm2.tunnel.TestPackets;
import org.junit.jupiter.api.Test;

/** The cache answers what it holds of a NACK and rewrites the rest; it evicts oldest first within its bounds. */
class NackResponderTest {

    static final int SENDER = 0x1234;
    static final int INSTANCE = 77;
    static final int OBJECT = 5;
    static final PooledByteBufAllocator ALLOC = PooledByteBufAllocator.DEFAULT;

    @Test
    void heldSymbolsAreServedAndTheRestForwardedInASmallerNack() {
        try (RepairCache cache = cacheWith(2, 3, 4, 7)) {
            List<Integer> served = new ArrayList<>();
            NackResponder responder = new NackResponder();
            ByteBuf nack = nackForRange(1, 8);
            NackResponder.Outcome outcome = responder.answer(wrap(nack), cache, "B", 0, 1_000_000, ALLOC,
                    e -> served.add(symbolOf(e)));
            assertThat(outcome).isEqualTo(NackResponder.Outcome.REWRITTEN);
            assertThat(served).containsExactly(2, 3, 4, 7);
            ByteBuf rewritten = responder.rewritten();
            assertThat(NormPacketValidator.validate(rewritten)).isNull();
            assertThat(requestedSymbols(rewritten)).containsExactly(1, 5, 6, 8);
            rewritten.release();
            nack.release();
        }
    }

    @Test
    void aNackFullyHeldIsAnsweredAndNotForwarded_andServedOncePerHoldoff() {
        try (RepairCache cache = cacheWith(3, 4, 5, 6)) {
            List<Integer> served = new ArrayList<>();
            NackResponder responder = new NackResponder();
            ByteBuf nack = nackForRange(3, 6);
            assertThat(responder.answer(wrap(nack), cache, "B", 0, 1_000_000, ALLOC, e -> served.add(symbolOf(e))))
                    .isEqualTo(NackResponder.Outcome.ANSWERED);
            assertThat(responder.answer(wrap(nack), cache, "B", 500_000, 1_000_000, ALLOC,
                    e -> served.add(symbolOf(e)))).as("within the hold-off: on its way, still answered")
                    .isEqualTo(NackResponder.Outcome.ANSWERED);
            assertThat(served).containsExactly(3, 4, 5, 6);
            responder.answer(wrap(nack), cache, "C", 500_000, 1_000_000, ALLOC, e -> served.add(symbolOf(e)));
            responder.answer(wrap(nack), cache, "B", 2_000_000, 1_000_000, ALLOC, e -> served.add(symbolOf(e)));
            assertThat(served).as("another side, and after the hold-off").hasSize(12);
            nack.release();
        }
    }

    @Test
    void aNackForNothingHeldIsForwardedUnchanged() {
        try (RepairCache cache = cacheWith(20)) {
            NackResponder responder = new NackResponder();
            ByteBuf nack = nackForRange(1, 8);
            assertThat(responder.answer(wrap(nack), cache, "B", 0, 0, ALLOC, e -> { }))
                    .isEqualTo(NackResponder.Outcome.FORWARD);
            assertThat(responder.served()).isZero();
            nack.release();
        }
    }

    @Test
    void cacheEvictsOldestFirstWithinItsBounds() {
        try (RepairCache cache = new RepairCache(ALLOC, 64 * 1024, 4)) {
            for (int s = 0; s < 6; s++) {
                ByteBuf m = data(s);
                cache.put(new ObjectMessageFlyweight().wrap(m));
                m.release();
            }
            assertThat(cache.size()).isEqualTo(4);
            assertThat(cache.find(SENDER, INSTANCE, OBJECT, 0, 0)).isNull();
            assertThat(cache.find(SENDER, INSTANCE, OBJECT, 0, 1)).isNull();
            assertThat(cache.find(SENDER, INSTANCE, OBJECT, 0, 5)).isNotNull();
            assertThat(cache.find(SENDER, INSTANCE + 1, OBJECT, 0, 5)).as("another instance").isNull();
        }
        try (RepairCache bytes = new RepairCache(ALLOC, 2600, 100)) {
            for (int s = 0; s < 7; s++) {           // 520-byte messages: 5 fit in 2600 bytes
                ByteBuf m = data(s);
                bytes.put(new ObjectMessageFlyweight().wrap(m));
                m.release();
            }
            assertThat(bytes.bytes()).isLessThanOrEqualTo(2600);
            assertThat(bytes.size()).isEqualTo(5);
            assertThat(bytes.find(SENDER, INSTANCE, OBJECT, 0, 1)).as("evicted by the wrap-around").isNull();
            RepairCache.Entry newest = bytes.find(SENDER, INSTANCE, OBJECT, 0, 6);
            assertThat(newest).isNotNull();
            current = bytes;
            assertThat(symbolOf(newest)).as("the bytes of the newest message are intact").isEqualTo(6);
            RepairCache.Entry oldest = bytes.find(SENDER, INSTANCE, OBJECT, 0, 2);
            assertThat(symbolOf(oldest)).isEqualTo(2);
        }
    }

    @org.junit.jupiter.api.Test
    void ringNeverServesOverwrittenBytes() {
        long seed = 77;
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        try (RepairCache cache = new RepairCache(ALLOC, 8192, 64)) {
            current = cache;
            for (int s = 0; s < 2000; s++) {
                int size = 40 + random.nextInt(1500);
                ByteBuf m = Unpooled.buffer(size);
                ObjectMessageFlyweight f = new ObjectMessageFlyweight().wrap(m, 0, size);
                f.writeObjectHeader(NormWire.TYPE_DATA, s, SENDER, INSTANCE, 0, 4, 0, 0, NormWire.FEC_RS8, s >>> 8);
                f.headerLength(20);
                f.writePayloadId(8, 0, s & 0xFF, 0);
                m.writerIndex(size);
                cache.put(new ObjectMessageFlyweight().wrap(m));
                m.release();
                assertThat(cache.bytes()).isLessThanOrEqualTo(8192);
                for (int back = 0; back <= Math.min(s, 40); back++) {
                    int t = s - back;
                    RepairCache.Entry e = cache.find(SENDER, INSTANCE, t >>> 8, 0, t & 0xFF);
                    if (e != null) {
                        ObjectMessageFlyweight g = new ObjectMessageFlyweight().wrap(cache.buffer(),
                                RepairCache.offset(e), RepairCache.length(e));
                        assertThat(g.sequence()).as("seed %d: message %d intact", seed, t).isEqualTo(t & 0xFFFF);
                    }
                }
                assertThat(cache.find(SENDER, INSTANCE, s >>> 8, 0, s & 0xFF)).as("newest is held").isNotNull();
            }
        }
    }

    RepairCache cacheWith(int... symbols) {
        RepairCache cache = new RepairCache(ALLOC, 1 << 20, 1024);
        current = cache;
        for (int s : symbols) {
            ByteBuf m = data(s);
            cache.put(new ObjectMessageFlyweight().wrap(m));
            m.release();
        }
        return cache;
    }

    /** A NORM_DATA of OBJECT, block 0, the symbol, with RS8 payload ids and a 500-byte payload. */
    static ByteBuf data(int symbol) {
        return TestPackets.data(SENDER, INSTANCE, OBJECT, symbol);
    }

    static ByteBuf nackForRange(int first, int last) {
        ByteBuf b = Unpooled.buffer(128);
        FeedbackFlyweight f = new FeedbackFlyweight().wrap(b, 0, 128);
        f.writeFeedbackHeader(NormWire.TYPE_NACK, 9, 0x999, SENDER, INSTANCE, 0, 0, 0, 0);
        f.headerLength(FeedbackFlyweight.HEADER_LENGTH);
        RepairRequestWriter w = new RepairRequestWriter().reset(b, FeedbackFlyweight.HEADER_LENGTH, 100,
                NormWire.FEC_RS8, 8);
        w.open(NormWire.FORM_RANGES, NormWire.REPAIR_SEGMENT);
        w.range(OBJECT, 0, first, OBJECT, 0, last, 0);
        w.close();
        b.writerIndex(FeedbackFlyweight.HEADER_LENGTH + w.length());
        assertThat(NormPacketValidator.validate(b)).isNull();
        return b;
    }

    static FeedbackFlyweight wrap(ByteBuf nack) {
        return new FeedbackFlyweight().wrap(nack);
    }

    RepairCache current;

    int symbolOf(RepairCache.Entry e) {
        ObjectMessageFlyweight f = new ObjectMessageFlyweight().wrap(current.buffer(), RepairCache.offset(e),
                RepairCache.length(e));
        return f.symbolId(8);
    }

    static List<Integer> requestedSymbols(ByteBuf nack) {
        FeedbackFlyweight f = wrap(nack);
        RepairRequestReader r = new RepairRequestReader().reset(nack, f.payloadIndex(),
                f.payloadIndex() + f.payloadLength(), NormWire.FEC_RS8, 8);
        List<Integer> symbols = new ArrayList<>();
        while (r.nextRequest()) {
            boolean ranges = r.form() == NormWire.FORM_RANGES;
            while (r.nextItem()) {
                int first = r.symbolId();
                int last = first;
                if (ranges && r.nextItem()) {
                    last = r.symbolId();
                }
                for (int s = first; s <= last; s++) {
                    symbols.add(s);
                }
            }
        }
        assertThat(r.malformed()).isFalse();
        return symbols;
    }
}
