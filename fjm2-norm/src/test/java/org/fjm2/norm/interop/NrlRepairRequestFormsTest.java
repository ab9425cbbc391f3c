package org.fjm2.norm.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.fjm2.norm.NormSession;
import org.fjm2.norm.ObjectCollector;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.codec.FeedbackFlyweight;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.ObjectMessageFlyweight;
import org.fjm2.norm.codec.RepairRequestReader;
import org.fjm2.norm.transport.LossInjector;
import org.fjm2.norm.transport.LossyTransport;
import org.junit.jupiter.api.Test;

/**
 * Every repair request form an fjm2 receiver sends is understood by an NRL NORM sender: a loss plan makes the fjm2
 * receiver ask for whole objects, runs of objects, whole blocks, runs of blocks, the NORM_INFO alone, runs of
 * segments and single segments (ITEMS and RANGES forms, OBJECT, BLOCK, INFO and SEGMENT flags); the NACKs it sends
 * are captured and decoded to prove each form went out, and every object must arrive intact.
 */
class NrlRepairRequestFormsTest {

    static final int RECEIVER = 20;
    static final int OBJECTS = 16;
    static final int SEGMENT = 1024;
    static final int BLOCK = 4;
    /** 12 segments: three blocks of four. */
    static final int SIZE = 12 * SEGMENT;
    static final long SEED = 77;

    @Test
    void nrlSenderAnswersEveryRequestFormWeSend() throws Exception {
        NrlPeer.assumeAvailable();
        NormConfig group = InteropWorkload.freshGroup();
        ObjectCollector received = new ObjectCollector(true);
        LossInjector plan = LossInjector.matching(new FirstTransmissionLoss());
        Set<String> forms = new TreeSet<>();
        try (MulticastCapture capture = MulticastCapture.open(group.group().getHostAddress(), group.port());
             NormSession rx = NormSession.open(InteropWorkload.fjm2Node(group, RECEIVER, 0).build(),
                     received, SEED, LossyTransport.around(plan, null))) {
            String sizes = String.join(",", java.util.Collections.nCopies(OBJECTS, Integer.toString(SIZE)));
            try (NrlPeer tx = NrlPeer.sender(group.group().getHostAddress(), group.port()).option("--id", 10)
                    .option("--sizes", sizes).option("--seed", SEED).flag("--info").option("--segment", SEGMENT)
                    .option("--block", BLOCK).option("--parity", 0).option("--rate", InteropWorkload.RATE)
                    .option("--grtt-max", InteropWorkload.GRTT_MAX_SECONDS).option("--linger", 30)
                    .option("--timeout", 30).start()) {
                assertThat(received.await(OBJECTS, 30, TimeUnit.SECONDS)).as("receiver %s%s", rx.counters(),
                        tx.describe()).isTrue();
            }
            capture.awaitQuiet(Duration.ofMillis(100), Duration.ofSeconds(2));
            for (byte[] packet : capture.packets()) {
                collectRequestForms(packet, forms);
            }
        }
        int[] sizes = new int[OBJECTS];
        java.util.Arrays.fill(sizes, SIZE);
        InteropWorkload.assertAllReceived(received, SEED, sizes, "fjm2 receiver");
        assertThat(forms).as("repair request forms the fjm2 receiver sent (and NRL answered)")
                .contains("ITEMS/OBJECT", "RANGES/OBJECT", "ITEMS/BLOCK", "RANGES/BLOCK", "ITEMS/INFO",
                        "ITEMS/SEGMENT", "RANGES/SEGMENT");
    }

    /** Adds "FORM/FLAGS" of every repair request in a NACK from the fjm2 receiver. */
    private static void collectRequestForms(byte[] packet, Set<String> forms) {
        if ((packet[0] & 0x0F) != NormWire.TYPE_NACK) {
            return;
        }
        ByteBuf buf = Unpooled.wrappedBuffer(packet);
        FeedbackFlyweight nack = new FeedbackFlyweight();
        nack.wrap(buf, 0, packet.length);
        if (nack.sourceId() != RECEIVER) {
            return;
        }
        RepairRequestReader reader = new RepairRequestReader();
        reader.reset(buf, nack.payloadIndex(), nack.payloadIndex() + nack.payloadLength(), NormWire.FEC_RS8, 8);
        while (reader.nextRequest()) {
            String form = reader.form() == NormWire.FORM_ITEMS ? "ITEMS" : reader.form() == NormWire.FORM_RANGES
                    ? "RANGES" : "ERASURES";
            int flags = reader.flags();
            String kind = (flags & NormWire.REPAIR_OBJECT) != 0 ? "OBJECT" : (flags & NormWire.REPAIR_BLOCK) != 0
                    ? "BLOCK" : (flags & NormWire.REPAIR_SEGMENT) != 0 ? "SEGMENT" : "INFO";
            forms.add(form + "/" + kind);
        }
    }

    /**
     * The loss plan, by object position relative to the first object heard; each targeted NORM_DATA or NORM_INFO is
     * lost on its first transmission only, so the repairs get through:
     * object 1 whole (one missing object), objects 3-5 whole (a run of objects), block 1 of object 7 (one block),
     * blocks 1-2 of object 9 (a run of blocks), the NORM_INFO of object 11, segments 0-2 of object 13 (a run of
     * segments), segment 1 of object 14 block 1 (one segment).
     */
    private static final class FirstTransmissionLoss implements Predicate<ByteBuf> {
        private final ObjectMessageFlyweight msg = new ObjectMessageFlyweight();
        private final Set<Long> seen = new HashSet<>();
        private int first = -1;

        @Override
        public boolean test(ByteBuf buf) {
            int type = buf.getUnsignedByte(buf.readerIndex()) & 0x0F;
            if (type != NormWire.TYPE_DATA && type != NormWire.TYPE_INFO) {
                return false;
            }
            msg.wrap(buf);
            if (first < 0) {
                first = msg.objectId();
            }
            int object = (msg.objectId() - first) & 0xFFFF;
            boolean info = type == NormWire.TYPE_INFO;
            long block = info ? -1 : msg.blockNumber(8);
            int symbol = info ? -1 : msg.symbolId(8);
            if (!planned(object, info, block, symbol)) {
                return false;
            }
            return seen.add(((long) object << 40) ^ ((block & 0xFFFFFF) << 16) ^ (symbol & 0xFFFF));
        }

        private static boolean planned(int object, boolean info, long block, int symbol) {
            switch (object) {
                case 1, 3, 4, 5:
                    return true;
                case 7:
                    return !info && block == 1;
                case 9:
                    return !info && block >= 1;
                case 11:
                    return info;
                case 13:
                    return !info && block == 0 && symbol <= 2;
                case 14:
                    return !info && block == 1 && symbol == 1;
                default:
                    return false;
            }
        }
    }
}
