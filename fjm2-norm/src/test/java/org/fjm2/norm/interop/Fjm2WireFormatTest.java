package org.fjm2.norm.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.fjm2.norm.NormSession;
import org.fjm2.norm.TestGroups;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.codec.Fti;
import org.fjm2.norm.codec.HeaderExtensions;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.ObjectMessageFlyweight;
import org.fjm2.norm.object.BlockPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What an NRL NORM receiver needs from an fjm2 sender's packets (docs/nrl-interop.md), checked on the wire without
 * NRL: fec_id 5 also without parity, the parity count in the FTI's last field, FLAG_INFO on every message of an
 * object with NORM_INFO (the NORM_INFO itself included), and no packet at all from a node that only listened.
 */
class Fjm2WireFormatTest {

    static final int SENDER = 90;
    static final int SEGMENT = 1024;
    static final int BLOCK = 16;
    static final int NAMED_SIZE = 40 * SEGMENT;
    static final int UNNAMED_SIZE = 3000;

    @ParameterizedTest(name = "parity {0}")
    @ValueSource(ints = {0, 4})
    void objectMessagesAreWhatNrlReceiversUnderstand(int parity) throws Exception {
        NormConfig group = TestGroups.fresh();
        List<ByteBuf> messages = new ArrayList<>();
        try (MulticastCapture capture = MulticastCapture.open(group.group().getHostAddress(), group.port())) {
            NormConfig config = group.toBuilder().nodeId(SENDER).segmentSize(SEGMENT).blockSize(BLOCK).parity(parity)
                    .autoParity(parity > 0 ? 1 : 0).build();
            try (NormSession tx = NormSession.open(config, null, 1)) {
                tx.enqueue(Unpooled.wrappedBuffer(new byte[NAMED_SIZE]),
                        Unpooled.copiedBuffer("named.bin", StandardCharsets.US_ASCII), 4, 5, TimeUnit.SECONDS);
                tx.enqueue(Unpooled.wrappedBuffer(new byte[UNNAMED_SIZE]), null, 4, 5, TimeUnit.SECONDS);
                assertThat(tx.awaitFlushed(Duration.ofSeconds(10))).isTrue();
            }
            capture.awaitQuiet(Duration.ofMillis(200), Duration.ofSeconds(5));
            for (byte[] packet : capture.packets()) {
                int type = packet[0] & 0x0F;
                if (type == NormWire.TYPE_DATA || type == NormWire.TYPE_INFO) {
                    messages.add(Unpooled.wrappedBuffer(packet));
                }
            }
        }
        ObjectMessageFlyweight msg = new ObjectMessageFlyweight();
        Fti fti = new Fti();
        BlockPartition partition = new BlockPartition();
        int firstObject = -1;
        int infos = 0;
        int parityData = 0;
        for (ByteBuf packet : messages) {
            msg.wrap(packet);
            if (firstObject < 0) {
                firstObject = msg.objectId();
            }
            boolean named = msg.objectId() == firstObject;
            assertThat(msg.fecId()).as("fec_id (NRL ignores objects of any other than 2, 5, 129)")
                    .isEqualTo(NormWire.FEC_RS8);
            assertThat(msg.hasFlag(NormWire.FLAG_INFO)).as("FLAG_INFO on a %s of the %s object",
                    msg.type() == NormWire.TYPE_INFO ? "NORM_INFO" : "NORM_DATA", named ? "named" : "unnamed")
                    .isEqualTo(named);
            int extEnd = msg.offset() + msg.headerLength();
            int ftiIndex = HeaderExtensions.find(packet, msg.extensionsIndex(), extEnd, NormWire.EXT_FTI);
            assertThat(ftiIndex).as("FTI in every object message").isNotNegative();
            assertThat(HeaderExtensions.readFti(packet, ftiIndex, extEnd, NormWire.FEC_RS8, fti)).isTrue();
            assertThat(fti.lastField()).as("the FTI's last field: the parity count, as NRL reads it")
                    .isEqualTo(parity);
            assertThat(fti.maxBlockLength()).isEqualTo(BLOCK);
            if (msg.type() == NormWire.TYPE_INFO) {
                infos++;
                assertThat(packet.toString(msg.payloadIndex(), msg.payloadLength(), StandardCharsets.US_ASCII))
                        .isEqualTo("named.bin");
            } else {
                partition.set(named ? NAMED_SIZE : UNNAMED_SIZE, SEGMENT, BLOCK, 0xFFFFFFL);
                if (msg.symbolId(8) >= partition.blockLength((int) msg.blockNumber(8))) {
                    parityData++;   // a parity ESI follows the block's own length (short blocks: k < B)
                }
            }
        }
        assertThat(infos).as("NORM_INFO sent").isPositive();
        // one auto-parity symbol per block: 40 segments make blocks of 14, 13, 13; 3 segments one block
        assertThat(parityData).as("proactive parity symbols").isEqualTo(parity > 0 ? 3 + 1 : 0);
    }

    @Test
    void aNodeThatOnlyListenedSendsNothing() throws Exception {
        NormConfig group = TestGroups.fresh();
        try (MulticastCapture capture = MulticastCapture.open(group.group().getHostAddress(), group.port())) {
            NormSession.open(group.toBuilder().nodeId(91).build(), null, 1).close();
            capture.awaitQuiet(Duration.ofMillis(300), Duration.ofSeconds(5));
            assertThat(capture.packets()).as("packets from a receiver that heard no sender (no EOT)").isEmpty();
        }
    }
}
