package org.fjm2.norm.fuzz;

import java.util.ArrayList;
import java.util.List;

/**
 * Structure-aware input for the stream receiver target: turns a fuzz input into the datagrams of one or two remote
 * stream senders ({@link StreamDatagrams}), mixing a well-formed stream (written, flushed, lost, repaired, ended)
 * with commands naming any position and hand-made segments whose every header field comes from the input, so that
 * the fuzzer gets past the FTI and sync into reassembly, decoding, delivery and the window.
 *
 * <p>The input is a series of ops; each starts with an op byte: its low nibble picks the {@link Kind}, bit 4 the
 * sender (two fixed source ids). Fields, in input order:
 * <pre>
 * WRITE:     flags(8: bit 0 end of message, bit 1 flush, bits 2-7 drop pattern) data(chunk): the segments this closes
 *            go out, except segment n when bit (n mod 6) of the drop pattern is set
 * REPAIR:    which(16): segment (which mod segments) again, as a repair
 * HAND_MADE: block(32) symbol(16) payload_len(16) payload_msg_start(16) payload_offset(32) repair(8: bit 0)
 *            data(chunk)
 * PARITY:    block(16) index(8): parity of a block whose segments are all closed (E up to 65,000,
 *            B + parity up to 255: an RS8 code)
 * FLUSH:     at(8: bit 0 = the last segment closed) [block(32) symbol(16) unless bit 0]
 * SQUELCH:   block(32)
 * END:       -: the end-of-stream mark goes out
 * RESTART:   stream_id(16) E(16) B(8) parity(8) buffer(32): the sender starts a new stream with this FTI
 * RAW:       block(32) symbol(16) payload(chunk): a NORM_DATA of the current stream with any payload
 * </pre>
 * {@link #seeds()} writes programs in exactly this order.
 */
public final class StreamMessageSynth {

    /** What one op byte makes. */
    public enum Kind { WRITE, REPAIR, HAND_MADE, PARITY, FLUSH, SQUELCH, END, RESTART, RAW, INFO }

    /** The two remote senders. */
    public static final int[] SOURCES = {0x0B000001, 0x0B000002};
    /** Datagrams one input makes at most: bounds the work of an input of any length. */
    public static final int MAX_DATAGRAMS = 4096;

    private final StreamDatagrams[] senders = new StreamDatagrams[2];

    public StreamMessageSynth() {
        for (int i = 0; i < senders.length; i++) {
            senders[i] = new StreamDatagrams(SOURCES[i], 1, 100 + i, 256, 8, 2, 64L * 256 * 8);
        }
    }

    /** Every datagram of the input, in order. */
    public List<byte[]> datagrams(byte[] input) {
        FuzzInput in = new FuzzInput(input);
        List<byte[]> out = new ArrayList<>();
        while (in.hasMore() && out.size() < MAX_DATAGRAMS) {
            next(in, out);
        }
        return out.size() > MAX_DATAGRAMS ? out.subList(0, MAX_DATAGRAMS) : out;
    }

    private void next(FuzzInput in, List<byte[]> out) {
        int op = in.u8();
        Kind kind = Kind.values()[(op & 0x0F) % Kind.values().length];
        int index = (op >>> 4) & 1;
        StreamDatagrams s = senders[index];
        switch (kind) {
            case WRITE -> {
                int flags = in.u8();
                byte[] data = in.chunk();
                int before = s.segments();
                s.write(data, (flags & 1) != 0);
                if ((flags & 2) != 0) {
                    s.flush();
                }
                int drop = flags >>> 2;
                for (int n = before; n < s.segments() && out.size() < MAX_DATAGRAMS; n++) {
                    if ((drop >>> (n % 6) & 1) == 0) {
                        out.add(s.segment(n, false));
                    }
                }
            }
            case REPAIR -> {
                int which = in.u16();
                if (s.segments() > 0) {
                    out.add(s.segment(which % s.segments(), true));
                }
            }
            case HAND_MADE -> {
                long block = in.u32();
                int symbol = in.u16();
                int length = in.u16();
                int messageStart = in.u16();
                long offset = in.u32();
                boolean repair = in.bit();
                out.add(s.handMade(block, symbol, length, messageStart, offset, in.chunk(), repair));
            }
            case PARITY -> {
                int block = in.u16();
                int parityIndex = in.u8();
                int complete = s.segments() / s.blockSize();
                if (s.parityCount() > 0 && complete > 0 && s.segmentSize() <= 65_000
                        && s.blockSize() + s.parityCount() <= 255) {
                    out.add(s.parity(block % complete, parityIndex % s.parityCount(), true));
                }
            }
            case FLUSH -> {
                boolean last = in.bit();
                if (last) {
                    if (s.segments() > 0) {
                        out.add(s.flushCommand());
                    }
                } else {
                    out.add(s.flushCommand(in.u32(), in.u16()));
                }
            }
            case SQUELCH -> out.add(s.squelch(in.u32()));
            case END -> {
                int before = s.segments();
                s.end();
                for (int n = before; n < s.segments(); n++) {
                    out.add(s.segment(n, false));
                }
            }
            case RESTART -> {
                int streamId = in.u16();
                int segmentSize = Math.max(1, in.u16());
                int blockSize = Math.max(1, in.u8());
                int parity = in.u8();
                long buffer = in.u32();
                senders[index] = new StreamDatagrams(SOURCES[index], 1, streamId, segmentSize, blockSize, parity,
                        buffer);
            }
            case INFO -> {
                if (in.bit()) {
                    s.announceInfo();
                } else {
                    out.add(s.info(in.chunk(), in.bit()));
                }
            }
            default -> out.add(s.data(in.u32(), in.u16(), in.chunk(), false));
        }
    }

    // ---- seeds ------------------------------------------------------------------------------------------------------

    /** A named seed program. */
    public record Seed(String name, byte[] program) {
    }

    private static byte[] bytes(int length, int seed) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (seed * 31 + i * 7);
        }
        return b;
    }

    private static FuzzInputWriter write(FuzzInputWriter w, int source, int flags, byte[] data) {
        return w.u8(Kind.WRITE.ordinal() | source << 4).u8(flags).chunk(data);
    }

    private static FuzzInputWriter op(FuzzInputWriter w, Kind kind, int source) {
        return w.u8(kind.ordinal() | source << 4);
    }

    /** The seed corpus of the stream receiver target. */
    public static List<Seed> seeds() {
        List<Seed> seeds = new ArrayList<>();
        FuzzInputWriter w = new FuzzInputWriter();
        write(w, 0, 1, bytes(1000, 1));
        write(w, 0, 3, bytes(3000, 2));
        op(w, Kind.END, 0);
        seeds.add(new Seed("messages_in_order_then_end", w.toByteArray()));

        w = new FuzzInputWriter();
        write(w, 0, 2 | (0b100101 << 2), bytes(6000, 3));
        op(w, Kind.FLUSH, 0).u8(1);
        for (int i = 0; i < 8; i++) {
            op(w, Kind.REPAIR, 0).u16(i * 6 + (i % 2 == 0 ? 0 : 2));
        }
        op(w, Kind.END, 0);
        seeds.add(new Seed("loss_flush_repairs", w.toByteArray()));

        w = new FuzzInputWriter();
        op(w, Kind.RESTART, 0).u16(300).u16(64).u8(4).u8(2).u32(4096);
        write(w, 0, 2 | (0b000010 << 2), bytes(64 * 4 * 3, 4));
        op(w, Kind.PARITY, 0).u16(0).u8(0);
        op(w, Kind.PARITY, 0).u16(1).u8(1);
        op(w, Kind.PARITY, 0).u16(2).u8(0);
        seeds.add(new Seed("parity_rebuilds_blocks", w.toByteArray()));

        w = new FuzzInputWriter();
        op(w, Kind.INFO, 0).u8(1);                              // the data says the stream has info
        write(w, 0, 3, bytes(1500, 11));                        // no NORM_INFO yet: the receiver asks for it
        op(w, Kind.INFO, 0).u8(0).chunk("prices.csv".getBytes(java.nio.charset.StandardCharsets.UTF_8)).u8(1);
        op(w, Kind.INFO, 0).u8(0).chunk(bytes(300, 12)).u8(1);  // a second copy: a duplicate
        seeds.add(new Seed("stream_info_asked_for_then_delivered_once", w.toByteArray()));

        w = new FuzzInputWriter();
        write(w, 0, 2 | (0b001000 << 2), bytes(4 * 256 * 8, 5));
        op(w, Kind.SQUELCH, 0).u32(2);
        write(w, 0, 2, bytes(2000, 6));
        seeds.add(new Seed("squelch_makes_a_gap", w.toByteArray()));

        w = new FuzzInputWriter();
        write(w, 0, 0, bytes(256, 7));
        op(w, Kind.HAND_MADE, 0).u32(0).u16(1).u16(257).u16(0).u32(256).u8(0).chunk(bytes(257, 8));
        op(w, Kind.HAND_MADE, 0).u32(0).u16(1).u16(100).u16(101).u32(256).u8(0).chunk(bytes(100, 9));
        op(w, Kind.HAND_MADE, 0).u32(0).u16(1).u16(256).u16(0).u32(5 * 256).u8(0).chunk(bytes(256, 10));
        op(w, Kind.HAND_MADE, 0).u32(0).u16(1).u16(0).u16(7).u32(256).u8(1).chunk(new byte[0]);
        op(w, Kind.HAND_MADE, 0).u32(0xFFFFFF).u16(3).u16(10).u16(1).u32(0).u8(0).chunk(bytes(10, 11));
        op(w, Kind.RAW, 0).u32(0).u16(200).chunk(bytes(16, 12));
        write(w, 0, 2, bytes(512, 13));
        seeds.add(new Seed("hostile_segments_between_good_ones", w.toByteArray()));

        w = new FuzzInputWriter();
        op(w, Kind.RESTART, 0).u16(5).u16(64).u8(2).u8(0).u32(1 << 20);
        write(w, 0, 2, bytes(300, 14));
        op(w, Kind.HAND_MADE, 0).u32(400_000).u16(0).u16(16).u16(1).u32(1_000_000).u8(0).chunk(bytes(16, 15));
        op(w, Kind.FLUSH, 0).u8(0).u32(800_000).u16(1);
        seeds.add(new Seed("sender_far_beyond_the_window", w.toByteArray()));

        w = new FuzzInputWriter();
        write(w, 0, 1, bytes(700, 16));
        write(w, 1, 3, bytes(900, 17));
        op(w, Kind.RESTART, 1).u16(101).u16(128).u8(2).u8(1).u32(2048);
        write(w, 1, 3, bytes(900, 18));
        op(w, Kind.RESTART, 0).u16(99).u16(256).u8(8).u8(2).u32(1 << 16);
        write(w, 0, 3, bytes(100, 19));
        seeds.add(new Seed("two_senders_new_and_old_streams", w.toByteArray()));

        w = new FuzzInputWriter();
        op(w, Kind.RESTART, 0).u16(7).u16(65000).u8(255).u8(0).u32(0xFFFFFFFFL);
        write(w, 0, 2, bytes(100, 20));
        op(w, Kind.RESTART, 0).u16(8).u16(2).u8(1).u8(0).u32(16);
        write(w, 0, 2, bytes(10, 21));
        seeds.add(new Seed("refused_stream_structures", w.toByteArray()));
        return seeds;
    }
}
