package org.fjm2.norm.fuzz;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.fjm2.norm.codec.NormPacketValidator;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.Quantizer;
import org.fjm2.norm.fuzz.NormSeedWriter.Fti;
import org.fjm2.norm.fuzz.NormSeedWriter.Request;
import org.fjm2.norm.security.GroupKey;
import org.fjm2.norm.security.PacketProtection;

/**
 * Writes the seed corpus of fjm2-norm's fuzz targets (run once by hand; the files are checked in):
 * <pre>
 * java -cp fjm2-norm/target/test-classes:fjm2-norm/target/classes:$(deps) org.fjm2.norm.fuzz.NormCorpusGenerator \
 *      fjm2-norm/src/test/resources
 * </pre>
 * Each seed is a valid message of one kind or a known hard case; the fuzzer mutates from there.
 */
public final class NormCorpusGenerator {

    /** The group the protection is bound to (any fixed one: the fuzzer does not vary it). */
    static final java.net.InetAddress FUZZ_GROUP = java.net.InetAddress.getLoopbackAddress();
    static final int FUZZ_PORT = 6003;

    /** Source indexes and targets of {@link NormSeedWriter}. */
    static final int A = 0;
    static final int B = 1;
    static final int LOCAL = NormMessageSynth.TARGET_LOCAL;
    static final int TO_A = 1;
    static final int RS8 = 0;
    static final int RS_M8 = 1;
    static final int RS_M16 = 1 | NormMessageSynth.FEC_SELECT_M16;
    static final int SMALL_BLOCK = 2;
    /** grtt byte of about 1 ms: NACK back-off timers fire within an input. */
    static final int GRTT_1MS = 0x8C;
    /** grtt byte of several seconds: a repair cycle stays in back-off for the whole input. */
    static final int GRTT_LONG = 0xE0;

    private final Path root;

    private NormCorpusGenerator(Path root) {
        this.root = root;
    }

    public static void main(String[] args) throws IOException {
        NormCorpusGenerator g = new NormCorpusGenerator(Path.of(args[0]));
        g.codec();
        g.protection();
        g.receiver();
        g.senderFeedback();
        g.streamReceiver();
    }

    private void streamReceiver() throws IOException {
        Path dir = root.resolve("org/fjm2/norm/StreamReceiverFuzzTestInputs/structuredStream");
        for (StreamMessageSynth.Seed s : StreamMessageSynth.seeds()) {
            write(dir, s.name(), s.program());
        }
    }

    // ---- seeds as synth programs ----------------------------------------------------------------------------------

    static byte[] payload(int length, int seed) {
        byte[] p = new byte[length];
        for (int i = 0; i < length; i++) {
            p[i] = (byte) (seed + i * 7);
        }
        return p;
    }

    static Fti fti(long transferLength, int m, int symbolLength, int blockLength, int lastField) {
        return new Fti(transferLength, m, symbolLength, blockLength, lastField);
    }

    /** An object of {@code size} bytes from source A, segment 64, blocks of 4, in order; optionally one missing. */
    static NormSeedWriter object(NormSeedWriter w, int source, int objectId, int size, int skipSegment, int grtt) {
        int segments = (size + 63) / 64;
        for (int s = 0; s < segments; s++) {
            if (s == skipSegment) {
                continue;
            }
            int length = Math.min(64, size - s * 64);
            w.data(source, 1, grtt, 0, RS8, objectId, s / 4, s % 4, 4, fti(size, 0, 64, 4, 2),
                    payload(length, objectId + s));
        }
        return w;
    }

    /** Seeds of the structured receiver target (also decoded into single datagrams for the codec and raw ones). */
    static List<Seed> receiverPrograms() {
        List<Seed> seeds = new ArrayList<>();
        seeds.add(new Seed("one_segment_object", object(new NormSeedWriter(), A, 10, 40, -1, GRTT_1MS)));
        seeds.add(new Seed("three_blocks_in_order", object(new NormSeedWriter(), A, 11, 700, -1, GRTT_1MS)));
        seeds.add(new Seed("missing_segment_then_flush", object(new NormSeedWriter(), A, 12, 700, 3, GRTT_1MS)
                .flush(A, 1, GRTT_1MS, RS8, 12, 2, 3, LOCAL)));
        seeds.add(new Seed("info_and_data", new NormSeedWriter()
                .info(A, 1, GRTT_1MS, NormWire.FLAG_INFO, RS8, 20, fti(100, 0, 64, 4, 2), payload(12, 1))
                .data(A, 1, GRTT_1MS, NormWire.FLAG_INFO, RS8, 20, 0, 0, 4, fti(100, 0, 64, 4, 2), payload(64, 2))
                .data(A, 1, GRTT_1MS, NormWire.FLAG_INFO, RS8, 20, 0, 1, 4, fti(100, 0, 64, 4, 2), payload(36, 3))));
        seeds.add(new Seed("parity_repairs_a_block", new NormSeedWriter()
                .data(A, 1, GRTT_1MS, 0, RS_M8, 30, 0, 0, 4, fti(256, 8, 64, 4, 6), payload(64, 1))
                .data(A, 1, GRTT_1MS, 0, RS_M8, 30, 0, 1, 4, fti(256, 8, 64, 4, 6), payload(64, 2))
                .data(A, 1, GRTT_1MS, 0, RS_M8, 30, 0, 4, 4, fti(256, 8, 64, 4, 6), payload(64, 3))
                .data(A, 1, GRTT_1MS, 0, RS_M8, 30, 0, 5, 4, fti(256, 8, 64, 4, 6), payload(64, 4))));
        seeds.add(new Seed("small_block_fec_129", new NormSeedWriter()
                .data(B, 7, GRTT_1MS, 0, SMALL_BLOCK, 40, 0, 0, 2, fti(100, 0, 64, 2, 2), payload(64, 5))
                .data(B, 7, GRTT_1MS, 0, SMALL_BLOCK, 40, 0, 1, 2, fti(100, 0, 64, 2, 2), payload(36, 6))));
        seeds.add(new Seed("squelch_then_data", new NormSeedWriter()
                .squelch(A, 1, RS8, 50, 48, 49)
                .data(A, 1, GRTT_1MS, 0, RS8, 51, 0, 0, 4, fti(40, 0, 64, 4, 2), payload(40, 7))
                .squelch(A, 1, RS8, 53, 51, 52)));
        seeds.add(new Seed("cc_probe_asks_feedback", new NormSeedWriter()
                .cc(A, 1, GRTT_1MS, NormWire.CC_CMD_FLAG_SYN, 9, 1000, 5000, true, LOCAL, TO_A)
                .data(A, 1, GRTT_1MS, 0, RS8, 60, 0, 0, 4, fti(40, 0, 64, 4, 2), payload(40, 8))));
        seeds.add(new Seed("sender_restarts_with_new_instance", object(new NormSeedWriter(), A, 70, 300, 2, GRTT_1MS)
                .eot(A, 1)
                .data(A, 2, GRTT_1MS, 0, RS8, 0, 0, 0, 4, fti(40, 0, 64, 4, 2), payload(40, 9))));
        seeds.add(new Seed("other_receivers_nack_and_other_commands", object(new NormSeedWriter(), A, 80, 700, 5,
                GRTT_LONG)
                .eot(A, 1)
                .nack(B, 1, TO_A, 0, 0, new Request(2, NormWire.REPAIR_SEGMENT, RS8,
                        new int[][] {{80, 1, 0, 4}, {80, 1, 3, 4}}))
                .otherCommand(A, 1, 1, new byte[] {0, 0, 0, 2})
                .otherCommand(A, 1, 2, payload(8, 3))
                .ack(B, 1, TO_A, NormWire.ACK_FLUSH, 0, true, RS8, 80, 2, 3)));
        seeds.add(new Seed("object_too_large_for_the_receiver", new NormSeedWriter()
                .data(A, 1, GRTT_1MS, 0, RS8, 90, 0, 0, 255, fti(1L << 40, 0, 1400, 255, 0), payload(64, 1))));
        // Known finding: one 52-byte NORM_DATA announcing a 64 MiB object (fec_id 2, m = 16, E = 16, B = 512,
        // max_n = 65024) makes the receiver allocate its whole container and per-block state at once.
        seeds.add(new Seed("finding_header_announced_64MiB_object", new NormSeedWriter()
                .data(A, 1, GRTT_LONG, 0, RS_M16, 100, 0, 0, 0, bigFti(), payload(16, 1))));
        // Known finding: an overheard REPAIR_BLOCK NACK for all 8,192 blocks of such an object (65,536 symbol ids each)
        // is walked symbol by symbol on the event loop.
        seeds.add(new Seed("finding_overheard_nack_for_8192_blocks", new NormSeedWriter()
                .data(A, 1, GRTT_LONG, 0, RS_M16, 100, 5, 0, 0, bigFti(), payload(16, 1))
                .nack(B, 1, TO_A, 0, 0, new Request(2, NormWire.REPAIR_BLOCK, RS_M16,
                        new int[][] {{100, 0, 0, 0}, {100, 8191, 0, 0}}))));
        // Known finding: EOTs from ever new source ids each create remote sender state that is never capped.
        NormSeedWriter flood = new NormSeedWriter();
        for (int i = 0; i < 2000; i++) {
            flood.eotFrom(0x20000000 + i, 1);
        }
        seeds.add(new Seed("finding_eot_from_2000_source_ids", flood));
        // Known finding: each new source id costs its remote sender state up front (about 70 KB, the receive window's
        // slots), so 64 EOTs of 16 bytes from distinct ids allocate some 4.5 MB.
        NormSeedWriter few = new NormSeedWriter();
        for (int i = 0; i < 64; i++) {
            few.eotFrom(0x21000000 + i, 1);
        }
        seeds.add(new Seed("finding_eot_from_64_source_ids", few));
        return seeds;
    }

    static Fti bigFti() {
        return fti(64L << 20, 16, 16, 512, 65024);
    }

    // ---- the targets ----------------------------------------------------------------------------------------------

    private void codec() throws IOException {
        Path dir = root.resolve("org/fjm2/norm/codec/PacketCodecFuzzTestInputs/validatedPacketsReadCleanly");
        NormMessageSynth synth = new NormMessageSynth(0x0F0F0F01, 0x1234, 0);
        List<byte[]> messages = new ArrayList<>();
        for (Seed s : receiverPrograms()) {
            if (!s.name().startsWith("finding_eot")) {
                messages.addAll(synth.messages(s.writer().toByteArray()));
            }
        }
        messages.addAll(synth.messages(feedbackPrograms().stream()
                .map(s -> s.writer().toByteArray()).reduce(new byte[0], NormCorpusGenerator::concat)));
        // One valid message per distinct (type, flavor or ack type, length), plus hand-made edge cases.
        List<String> seen = new ArrayList<>();
        for (byte[] m : messages) {
            requireValid(m);
            String key = (m[0] & 0x0F) + "-" + (m.length > 12 ? m[12] : 0) + "-" + (m.length > 14 ? m[14] : 0);
            if (!seen.contains(key) && seen.size() < 14) {
                seen.add(key);
                write(dir, "valid_" + seen.size() + "_type" + (m[0] & 0x0F), m);
            }
        }
        write(dir, "empty", new byte[0]);
        write(dir, "truncated_common_header", new byte[] {0x12, 5, 0, 7, 1, 2, 3});
        // CC_FEEDBACK extension (HET 3) of one word at the very end: readers of its 12-byte layout must look at its
        // length first.
        byte[] shortExtension = synth.messages(new NormSeedWriter()
                .ack(A, 1, TO_A, NormWire.ACK_CC, 0, false, RS8, 0, 0, 0).toByteArray()).get(0);
        byte[] ack = java.util.Arrays.copyOf(shortExtension, 28);
        ack[1] = 7;
        ack[24] = 3;
        ack[25] = 1;
        write(dir, "one_word_cc_feedback_extension", ack);
    }

    private void protection() throws IOException {
        Path forged = root.resolve("org/fjm2/norm/security/PacketProtectionFuzzTestInputs/forgedDatagramsAreRejected");
        Path roundTrip = root.resolve(
                "org/fjm2/norm/security/PacketProtectionFuzzTestInputs/protectedPayloadsRoundTrip");
        NormMessageSynth synth = new NormMessageSynth(0x0F0F0F01, 0x1234, 0);
        byte[] data = synth.messages(object(new NormSeedWriter(), A, 1, 40, -1, GRTT_1MS).toByteArray()).get(0);
        byte[] otherKey = new byte[32];
        java.util.Arrays.fill(otherKey, (byte) 0x5A);
        for (PacketProtection.Mode mode : PacketProtection.Mode.values()) {
            String name = mode.name().toLowerCase();
            PacketProtection stranger = new PacketProtection(mode, GroupKey.of(otherKey), 0x0A000001, FUZZ_GROUP, FUZZ_PORT);
            ByteBuf sealed = Unpooled.buffer(data.length + 64).writeBytes(data);
            stranger.protect(sealed);
            byte[] wire = ByteBufUtil.getBytes(sealed);
            write(forged, name + "_under_another_key", wire);
            byte[] truncated = java.util.Arrays.copyOf(wire, wire.length - 1);
            write(forged, name + "_truncated_by_one", truncated);
            write(forged, name + "_header_only", java.util.Arrays.copyOf(wire, 12));
        }
        write(forged, "plain_norm_data", data);
        write(forged, "empty", new byte[0]);
        write(forged, "exactly_minimum_authenticated_length", new byte[8 + 8 + 16]);
        write(forged, "exactly_minimum_sealed_length", new byte[4 + 8 + 16 + 8]);
        write(forged, "larger_than_scratch", new byte[66_000]);
        write(roundTrip, "norm_data", data);
        write(roundTrip, "empty", new byte[0]);
        write(roundTrip, "eight_bytes", payload(8, 1));
        write(roundTrip, "segment_1400", payload(1400, 2));
        write(roundTrip, "jumbo_9000", payload(9000, 3));
        write(roundTrip, "largest_datagram", payload(65_507, 4));
    }

    private void receiver() throws IOException {
        Path structured = root.resolve("org/fjm2/norm/session/ReceiverFuzzTestInputs/structuredMessages");
        Path raw = root.resolve("org/fjm2/norm/session/ReceiverFuzzTestInputs/rawDatagrams");
        NormMessageSynth synth = new NormMessageSynth(0x0F0F0F01, 0x1234, 0);
        for (Seed s : receiverPrograms()) {
            byte[] program = s.writer().toByteArray();
            write(structured, s.name(), program);
            List<byte[]> datagrams = synth.messages(program);
            datagrams.forEach(NormCorpusGenerator::requireValid);
            write(raw, s.name(), DatagramFraming.join(datagrams));
        }
        write(raw, "garbage_datagrams", DatagramFraming.join(List.of(payload(3, 1), payload(40, 2), new byte[0],
                payload(1500, 3))));
    }

    static List<Seed> feedbackPrograms() {
        List<Seed> seeds = new ArrayList<>();
        seeds.add(new Seed("nack_segments", new NormSeedWriter()
                .nack(B, 0, LOCAL, 0, 0, new Request(1, NormWire.REPAIR_SEGMENT, RS8,
                        new int[][] {{1, 0, 0, 0}, {1, 0, 3, 0}, {2, 5, 7, 0}}))));
        seeds.add(new Seed("nack_ranges_and_erasures", new NormSeedWriter()
                .nack(B, 0, LOCAL, 1, 5000, new Request(2, NormWire.REPAIR_SEGMENT, RS8,
                                new int[][] {{1, 1, 0, 0}, {1, 1, 15, 0}}),
                        new Request(3, NormWire.REPAIR_SEGMENT, RS8, new int[][] {{2, 2, 16, 3}}))));
        seeds.add(new Seed("nack_blocks_objects_and_info", new NormSeedWriter()
                .nack(B, 0, LOCAL, 0, 0, new Request(2, NormWire.REPAIR_BLOCK, RS8,
                                new int[][] {{2, 0, 0, 0}, {2, 9, 0, 0}}),
                        new Request(2, NormWire.REPAIR_OBJECT | NormWire.REPAIR_INFO, RS8,
                                new int[][] {{0, 0, 0, 0}, {2, 0, 0, 0}}))));
        seeds.add(new Seed("nack_for_objects_gone_from_the_cache", new NormSeedWriter()
                .nack(B, 0, LOCAL, 0, 0, new Request(1, NormWire.REPAIR_OBJECT, RS8,
                        new int[][] {{65000, 0, 0, 0}, {40000, 0, 0, 0}}))));
        seeds.add(new Seed("nack_block_range_over_all_block_numbers", new NormSeedWriter()
                .nack(B, 0, LOCAL, 0, 0, new Request(2, NormWire.REPAIR_BLOCK, RS8,
                        new int[][] {{0, 0, 0, 0}, {2, 0xFFFFFF, 255, 0}}))));
        seeds.add(new Seed("ack_flush_cc_and_leave", new NormSeedWriter()
                .ack(B, 0, LOCAL, NormWire.ACK_FLUSH, 1, false, RS8, 2, 9, 15)
                .ack(B, 0, LOCAL, NormWire.ACK_CC, 0, true, RS8, 0, 0, 0)
                .ack(B, 0, LOCAL, NormWire.ACK_FJM2_LEAVE, 0, false, RS8, 0, 0, 0)
                .ack(A, 0, LOCAL, 200, 3, false, RS8, 0, 0, 0)));
        seeds.add(new Seed("feedback_for_another_instance", new NormSeedWriter()
                .nack(B, 77, LOCAL, 0, 0, new Request(1, NormWire.REPAIR_SEGMENT, RS8, new int[][] {{1, 0, 0, 0}}))
                .ack(B, 77, LOCAL, NormWire.ACK_FLUSH, 1, false, RS8, 2, 9, 15)));
        // Finding: feedback from ever new receiver ids; the sender tracks each one for flow control, without a cap.
        seeds.add(new Seed("finding_feedback_from_2000_receiver_ids", manyReceivers()));
        return seeds;
    }

    /** ACK(CC) from 2000 distinct receiver ids (source index 3 reads a fuzzed id). */
    static NormSeedWriter manyReceivers() {
        FuzzInputWriter w = new FuzzInputWriter();
        for (int i = 0; i < 2000; i++) {
            w.u8(NormMessageSynth.Kind.ACK.ordinal() | (3 << 4)).u32(0x30000000L + i).u16(0).u8(0).u8(0)
                    .u8(LOCAL).u8(NormWire.ACK_CC).u8(0).u32(0).u32(0).u8(0)
                    .u8(RS8).u16(0).u32(0).u16(0).u16(0).u16(0);
        }
        return new NormSeedWriter().append(w.toByteArray());
    }

    /**
     * NORM-CC feedback to a congestion-controlled sender (its first probe has cc_sequence 0): a CLR in slow start,
     * then claims of absurd loss from many receivers, a zero rate, a round trip of 1000 s, a sequence far ahead.
     */
    static List<Seed> ccFeedbackPrograms() {
        int start = NormWire.CC_FLAG_START | NormWire.CC_FLAG_RTT;
        int steady = NormWire.CC_FLAG_RTT | NormWire.CC_FLAG_CLR;
        int rate20m = Quantizer.quantizeRate(20e6 / 8);
        int rtt10ms = Quantizer.quantizeRtt(0.01);
        List<Seed> seeds = new ArrayList<>();
        seeds.add(new Seed("cc_slow_start_then_loss", new NormSeedWriter()
                .ccAck(A, LOCAL, 0, start, rtt10ms, 0, rate20m)
                .ccAck(A, LOCAL, 1, steady, rtt10ms, Quantizer.quantizeLoss32(0.01), rate20m)
                .ccAck(B, LOCAL, 1, start, rtt10ms, 0, Quantizer.quantizeRate(1e6))));
        NormSeedWriter absurd = new NormSeedWriter();
        for (int i = 0; i < 40; i++) {
            absurd.ccAck(A + i % 3, LOCAL, i % 2, NormWire.CC_FLAG_RTT, 255, 0xFFFFFFFFL, 0x10);
        }
        seeds.add(new Seed("cc_absurd_loss", absurd));
        seeds.add(new Seed("cc_impossible_values", new NormSeedWriter()
                .ccAck(A, LOCAL, 0, start, rtt10ms, 0, 0)
                .ccAck(A, LOCAL, 0, start, 255, 0, rate20m)
                .ccAck(A, LOCAL, 0x7000, start, rtt10ms, 0, rate20m)
                .ccAck(B, LOCAL, 0, 0xFF, 0, 0xFFFFFFFFL, 0xFFFF)));
        return seeds;
    }

    private void senderFeedback() throws IOException {
        Path cc = root.resolve("org/fjm2/norm/SenderFeedbackFuzzTestInputs/congestionFeedback");
        for (Seed s : ccFeedbackPrograms()) {
            write(cc, s.name(), s.writer().toByteArray());
        }
        Path structured = root.resolve("org/fjm2/norm/session/SenderFeedbackFuzzTestInputs/structuredFeedback");
        Path raw = root.resolve("org/fjm2/norm/session/SenderFeedbackFuzzTestInputs/rawFeedback");
        // Raw feedback has instance_id 0 (replaced by the sender's) and absolute object ids (random per session).
        NormMessageSynth synth = new NormMessageSynth(0x0F0F0F01, 0, 0);
        for (Seed s : feedbackPrograms()) {
            byte[] program = s.writer().toByteArray();
            write(structured, s.name(), program);
            List<byte[]> datagrams = synth.messages(program);
            datagrams.forEach(NormCorpusGenerator::requireValid);
            write(raw, s.name(), DatagramFraming.join(datagrams));
        }
        byte[] receiverProgram = receiverPrograms().get(2).writer().toByteArray();
        write(structured, "data_from_a_remote_sender", receiverProgram);
    }

    // ---- helpers ------------------------------------------------------------------------------------------------

    record Seed(String name, NormSeedWriter writer) {
    }

    static void requireValid(byte[] datagram) {
        if (datagram.length == 0) {
            return;     // the empty RAW message that starts a hand-assembled program
        }
        var error = NormPacketValidator.validate(Unpooled.wrappedBuffer(datagram));
        if (error != null) {
            throw new IllegalStateException("seed message is not valid (" + error + "): "
                    + ByteBufUtil.hexDump(datagram));
        }
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    static void write(Path dir, String name, byte[] content) throws IOException {
        Files.createDirectories(dir);
        Files.write(dir.resolve(name), content);
    }
}
