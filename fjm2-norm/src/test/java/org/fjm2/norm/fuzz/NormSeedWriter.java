package org.fjm2.norm.fuzz;

import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.fuzz.NormMessageSynth.Kind;

/**
 * Writes seed inputs for {@link NormMessageSynth}, field for field in the order it reads them (corpus generators
 * only). Sources are 0..2 (the fixed remote senders); targets 0 = the local node, 1..3 = the fixed sources.
 */
public final class NormSeedWriter {

    /** An FTI as the synth writes it; {@code mOrInstance} is m for fec_id 2. */
    public record Fti(long transferLength, int mOrInstance, int symbolLength, int maxBlockLength, int lastField) {
    }

    /** One repair request: its entries are (object, block, symbol, block_len) items, two per entry for RANGES. */
    public record Request(int form, int flags, int fecSelector, int[][] items) {
    }

    private final FuzzInputWriter out = new FuzzInputWriter();

    private NormSeedWriter header(Kind kind, int source, int instance, int grtt, int backoffGsize) {
        out.u8(kind.ordinal() | (source << 4)).u16(instance).u8(grtt).u8(backoffGsize);
        return this;
    }

    public NormSeedWriter data(int source, int instance, int grtt, int flags, int fecSelector, int objectId,
                               long block, int symbol, int blockLength, Fti fti, byte[] payload) {
        return objectMessage(Kind.DATA, source, instance, grtt, flags, fecSelector, objectId, block, symbol,
                blockLength, fti, payload);
    }

    public NormSeedWriter info(int source, int instance, int grtt, int flags, int fecSelector, int objectId, Fti fti,
                               byte[] payload) {
        return objectMessage(Kind.INFO, source, instance, grtt, flags, fecSelector, objectId, 0, 0, 0, fti, payload);
    }

    private NormSeedWriter objectMessage(Kind kind, int source, int instance, int grtt, int flags, int fecSelector,
                                         int objectId, long block, int symbol, int blockLength, Fti fti,
                                         byte[] payload) {
        header(kind, source, instance, grtt, 0x43);
        out.u8(flags).u8(fecSelector).u16(objectId).u32(block).u16(symbol).u16(blockLength);
        if (fti == null) {
            out.u8(0);
        } else {
            out.u8(1).u16((int) (fti.transferLength() >>> 32)).u32(fti.transferLength()).u8(fti.mOrInstance())
                    .u16(fti.symbolLength()).u16(fti.maxBlockLength()).u16(fti.lastField());
        }
        out.chunk(payload);
        return this;
    }

    public NormSeedWriter flush(int source, int instance, int grtt, int fecSelector, int objectId, long block,
                                int symbol, int... targets) {
        header(Kind.FLUSH, source, instance, grtt, 0x43);
        out.u8(fecSelector).u16(objectId).u32(block).u16(symbol).u16(0).u8(targets.length);
        for (int t : targets) {
            out.u8(t);
        }
        return this;
    }

    public NormSeedWriter eot(int source, int instance) {
        return header(Kind.EOT, source, instance, 0x60, 0x43);
    }

    /** An EOT from a fuzzed (not fixed) source id. */
    public NormSeedWriter eotFrom(int sourceId, int instance) {
        out.u8(Kind.EOT.ordinal() | (3 << 4)).u32(sourceId).u16(instance).u8(0x60).u8(0x43);
        return this;
    }

    public NormSeedWriter squelch(int source, int instance, int fecSelector, int objectId, int... invalidObjects) {
        header(Kind.SQUELCH, source, instance, 0x60, 0x43);
        out.u8(fecSelector).u16(objectId).u32(0).u16(0).u16(0).u8(invalidObjects.length);
        for (int o : invalidObjects) {
            out.u16(o);
        }
        return this;
    }

    public NormSeedWriter cc(int source, int instance, int grtt, int ccFlags, int sequence, long seconds, long micros,
                             boolean withRate, int... targets) {
        header(Kind.CC, source, instance, grtt, 0x43);
        out.u8(ccFlags).u16(sequence).u32(seconds).u32(micros).u8(withRate ? 1 : 0);
        if (withRate) {
            out.u16(0x1234);
        }
        out.u8(targets.length);
        for (int t : targets) {
            out.u8(t).u8(0x04).u8(0x30).u16(0x2000);
        }
        return this;
    }

    public NormSeedWriter otherCommand(int source, int instance, int flavorIndex, byte[] payload) {
        header(Kind.OTHER_COMMAND, source, instance, 0x60, 0x43);
        out.u8(flavorIndex).u8(0).u8(0).u8(0).chunk(payload);
        return this;
    }

    /** A NACK from {@code source} to {@code target} (0 = the local node, 1..3 = a fixed source). */
    public NormSeedWriter nack(int source, int instance, int target, long seconds, long micros, Request... requests) {
        header(Kind.NACK, source, instance, 0, 0);
        out.u8(target).u32(seconds).u32(micros).u8(requests.length);
        for (Request r : requests) {
            int perEntry = r.form() == 2 ? 2 : 1;
            out.u8(r.form() - 1).u8(r.flags()).u8(r.fecSelector()).u8(r.items().length / perEntry);
            for (int[] item : r.items()) {
                out.u16(item[0]).u32(item[1] & 0xFFFFFFFFL).u16(item[2]).u16(item[3]);
            }
        }
        return this;
    }

    /** An ACK whose payload is an ACK(FLUSH) position (ignored for other ack types but still present). */
    public NormSeedWriter ack(int source, int instance, int target, int ackType, int ackId, boolean ccFeedback,
                              int fecSelector, int objectId, long block, int symbol) {
        header(Kind.ACK, source, instance, 0, 0);
        out.u8(target).u8(ackType).u8(ackId).u32(0).u32(0).u8(ccFeedback ? 1 : 0);
        if (ccFeedback) {
            out.u16(7).u8(0x04).u8(0x30).u32(0).u16(0x2000);
        }
        out.u8(fecSelector).u16(objectId).u32(block).u16(symbol).u16(0).chunk(new byte[0]);
        return this;
    }

    /**
     * An ACK(CC) from {@code source} to {@code target} carrying EXT_CC_FEEDBACK with the given fields (no
     * grtt_response: the sender takes the cc_rtt field as the round trip).
     */
    public NormSeedWriter ccAck(int source, int target, int ccSequence, int flags, int rtt, long loss32, int rate) {
        header(Kind.ACK, source, 0, 0, 0);
        out.u8(target).u8(NormWire.ACK_CC).u8(0).u32(0).u32(0).u8(1);
        out.u16(ccSequence).u8(flags).u8(rtt).u32(loss32).u16(rate);
        out.u8(0).u16(0).u32(0).u16(0).u16(0).chunk(new byte[0]);
        return this;
    }

    public NormSeedWriter raw(byte[] datagram) {
        out.u8(Kind.RAW.ordinal()).chunk(datagram);
        return this;
    }

    /** Appends bytes already in the synth's format (hand-assembled messages). */
    public NormSeedWriter append(byte[] program) {
        out.bytes(program);
        return this;
    }

    public byte[] toByteArray() {
        return out.toByteArray();
    }
}
