package org.fjm2.norm.fec;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.fjm2.norm.interop.MulticastCapture;
import org.fjm2.norm.interop.NrlPeer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Known vectors from libnorm itself: an NRL sender (the test peer) sends objects with all parity proactively
 * (NormSetAutoParity), this test captures its NORM_DATA packets on the group and checks that {@link FecCodec}
 * reproduces every parity symbol bit for bit from the captured source symbols, and rebuilds lost source symbols from
 * that parity. Object sizes give short blocks (RFC 5052 partitioning), short last segments and one-byte objects.
 */
class NrlParityVectorsTest {

    /** Parity counts on the wire, for the report of what was compared. */
    private static final class Tally {
        int blocks;
        int shortBlocks;
        int shortLastSegments;
        int paritySymbols;
        int incompleteBlocks;
    }

    @ParameterizedTest(name = "fec-id {0}: B={1} parity={2} segment={3} sizes {4}")
    @CsvSource(delimiter = ';', value = {
        // requested fec-id (0 = libnorm's choice); B; parity; segment; object sizes; fec_id and m on the wire
        "0;   16;  4; 1024; 1,5000,40000,16384; 5;   8",
        "0;   64; 16; 1400; 150000,1399,90001;  5;   8",
        "0;   10;  5;  333; 3331,999,10000;     5;   8",
        "0;  200; 55;  100; 30001,7;            5;   8",
        "129; 16;  4; 1024; 40000,1;            129; 8",
        "2;   20;  6;  512; 25000,513;          2;   8",
        "0;  300;  8;   64; 40000,19201,33;     2;   16",
        "0;   16;  0; 1024; 5000;               5;   8",
    })
    void parityEqualsLibnormParity(int requestedFecId, int b, int parity, int segment, String sizes,
                                   int wireFecId, int wireM) throws IOException, InterruptedException {
        NrlPeer.assumeAvailable();
        List<CapturedNormData> data = captureNrlSender(requestedFecId, b, parity, segment, sizes);
        assertThat(data).as("NORM_DATA captured").isNotEmpty();
        // transport id -> SBN -> ESI -> symbol
        Map<Integer, Map<Long, Map<Integer, CapturedNormData>>> objects = new TreeMap<>();
        for (CapturedNormData d : data) {
            assertThat(d.fecId).isEqualTo(wireFecId);
            assertThat(d.fti).as("EXT_FTI in every NORM_DATA").isNotNull();
            assertThat(d.fti.fieldBits).isEqualTo(wireM);
            assertThat(d.fti.maxBlockLength).isEqualTo(b);
            assertThat(d.fti.segmentSize).isEqualTo(segment);
            // NRL writes the parity count in the FTI's last field (RFC 5510's max_n would be B + parity)
            assertThat(d.fti.lastField).isEqualTo(parity);
            objects.computeIfAbsent(d.transportId, t -> new TreeMap<>())
                    .computeIfAbsent(d.sbn, s -> new TreeMap<>())
                    .putIfAbsent(d.esi, d);
        }
        assertThat(objects).as("objects seen").hasSize(sizes.split(",").length);
        FecCodec codec = FecCodec.forFecId(wireFecId, wireM);
        Tally tally = new Tally();
        for (Map<Long, Map<Integer, CapturedNormData>> blocks : objects.values()) {
            for (Map.Entry<Long, Map<Integer, CapturedNormData>> block : blocks.entrySet()) {
                checkBlock(codec, b, parity, segment, block.getKey(), block.getValue(), tally);
            }
        }
        System.out.printf("fec_id %d m=%d B=%d parity=%d segment=%d: %d blocks (%d short, %d with a short last "
                        + "segment), %d parity symbols equal to libnorm's, %d blocks incomplete in the capture%n",
                wireFecId, wireM, b, parity, segment, tally.blocks, tally.shortBlocks, tally.shortLastSegments,
                tally.paritySymbols, tally.incompleteBlocks);
        // the capture socket may drop datagrams on a loaded machine; most blocks must still be checked
        assertThat(tally.incompleteBlocks).as("blocks missing symbols in the capture")
                .isLessThanOrEqualTo(tally.blocks / 5);
        if (parity > 0) {
            assertThat(tally.paritySymbols).isPositive();
        }
    }

    private static void checkBlock(FecCodec codec, int b, int parity, int segment, long sbn,
                                   Map<Integer, CapturedNormData> symbols, Tally tally) {
        CapturedNormData first = symbols.values().iterator().next();
        int k = CapturedNormData.blockLength(first.fti.objectSize, segment, b, sbn);
        String where = "object " + first.transportId + " block " + sbn + " (k=" + k + ")";
        if (first.sourceBlockLength >= 0) {
            assertThat(first.sourceBlockLength).as(where + ": fec_id 129 block length").isEqualTo(k);
        }
        for (int esi : symbols.keySet()) {
            assertThat(esi).as(where + ": parity ESIs follow the block's own k").isLessThan(k + parity);
        }
        tally.blocks++;
        if (k < b) {
            tally.shortBlocks++;
        }
        for (int esi = 0; esi < k + parity; esi++) {
            if (!symbols.containsKey(esi)) {
                tally.incompleteBlocks++;
                return;
            }
        }
        byte[][] source = new byte[k][];
        int[] sourceLength = new int[k];
        int longest = 0;
        for (int i = 0; i < k; i++) {
            source[i] = symbols.get(i).payload;
            sourceLength[i] = source[i].length;
            longest = Math.max(longest, sourceLength[i]);
        }
        if (sourceLength[k - 1] < segment) {
            tally.shortLastSegments++;
        }
        if (parity == 0) {
            return;
        }
        byte[][] wireParity = new byte[parity][];
        for (int j = 0; j < parity; j++) {
            wireParity[j] = symbols.get(k + j).payload;
            // NRL sends parity only as long as the block's longest source symbol
            assertThat(wireParity[j].length).as(where + " parity " + j + " length").isEqualTo(longest);
        }
        byte[][] computed = new byte[parity][longest];
        codec.encodeParity(b, k, parity, source, new int[k], sourceLength, longest, computed, new int[parity]);
        for (int j = 0; j < parity; j++) {
            assertThat(computed[j]).as(where + " parity " + j).isEqualTo(wireParity[j]);
            tally.paritySymbols++;
        }
        byte[] one = new byte[longest];
        codec.encodeOneParity(b, k, parity, source, new int[k], sourceLength, longest, parity - 1, one, 0);
        assertThat(one).as(where + " last parity on demand").isEqualTo(wireParity[parity - 1]);
        checkDecode(codec, b, k, parity, source, sourceLength, wireParity, longest, where);
    }

    /** Loses the first min(k, parity) source symbols and rebuilds them from libnorm's parity. */
    private static void checkDecode(FecCodec codec, int b, int k, int parity, byte[][] source, int[] sourceLength,
                                    byte[][] wireParity, int symbolLength, String where) {
        int lost = Math.min(k, parity);
        byte[][] slots = new byte[k][];
        int[] lengths = new int[k];
        int[] esis = new int[k];
        for (int s = 0; s < k; s++) {
            if (s < lost) {
                slots[s] = Arrays.copyOf(wireParity[s], symbolLength);
                lengths[s] = symbolLength;
                esis[s] = k + s;
            } else {
                slots[s] = source[s];
                lengths[s] = sourceLength[s];
                esis[s] = s;
            }
        }
        boolean decoded = codec.decode(b, k, parity, slots, new int[k], lengths, esis, symbolLength);
        if (codec.fieldBits() == 16 && (symbolLength & 1) != 0) {
            assertThat(decoded).as(where + ": odd length over GF(2^16) is refused").isFalse();
            return;
        }
        assertThat(decoded).as(where + " decode").isTrue();
        for (int i = 0; i < k; i++) {
            assertThat(Arrays.copyOf(slots[i], sourceLength[i])).as(where + " rebuilt source " + i)
                    .isEqualTo(source[i]);
        }
    }

    private static List<CapturedNormData> captureNrlSender(int fecId, int b, int parity, int segment, String sizes)
            throws IOException, InterruptedException {
        String group = MulticastCapture.freshGroup();
        int port = MulticastCapture.freshPort();
        List<CapturedNormData> data = new ArrayList<>();
        try (MulticastCapture capture = MulticastCapture.open(group, port);
             NrlPeer tx = NrlPeer.sender(group, port).option("--sizes", sizes).option("--block", b)
                     .option("--parity", parity).option("--auto-parity", parity).option("--segment", segment)
                     .option("--fec-id", fecId).option("--rate", 8_000_000).option("--linger", 0.2)
                     .option("--timeout", 60).start()) {
            tx.awaitEvent("DONE", Duration.ofSeconds(90));
            assertThat(tx.awaitExit(Duration.ofSeconds(30))).as(tx.describe()).isZero();
            capture.awaitQuiet(Duration.ofMillis(300), Duration.ofSeconds(5));
            for (byte[] packet : capture.packets()) {
                CapturedNormData d = CapturedNormData.parse(packet);
                if (d != null) {
                    data.add(d);
                }
            }
        }
        return data;
    }
}
