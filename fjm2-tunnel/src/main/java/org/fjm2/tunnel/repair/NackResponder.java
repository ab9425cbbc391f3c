package org.fjm2.tunnel.repair;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.fjm2.norm.codec.FeedbackFlyweight;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.RepairRequestReader;
import org.fjm2.norm.codec.RepairRequestWriter;

/**
 * Answers a NORM_NACK from the {@link RepairCache}: every requested source symbol the cache holds is handed to a
 * {@link Server} (which sends it back towards the receivers that asked), and what remains is written into a new,
 * smaller NACK to forward towards the sender. Only segment requests (ITEMS and RANGES with the SEGMENT flag, within
 * one block) are answered; INFO, BLOCK and OBJECT requests and erasure counts (FEC) are forwarded unchanged, because
 * only the sender knows what parity to make or how long an object is. One thread; nothing is allocated unless
 * a NACK is rewritten.
 */
public final class NackResponder {

    /** Longest range (in symbols) taken apart; longer ones are forwarded as they are. */
    static final int MAX_RANGE_SYMBOLS = 256;

    /** Sends a cached message towards the requester. */
    public interface Server {
        void serve(RepairCache.Entry entry);
    }

    /** What became of a NACK. */
    public enum Outcome {
        /** Nothing could be answered: forward the original. */
        FORWARD,
        /** Everything was answered (or is on its way): forward nothing. */
        ANSWERED,
        /** Part was answered: forward {@link #rewritten()} instead of the original. */
        REWRITTEN
    }

    private final RepairRequestReader reader = new RepairRequestReader();
    private final RepairRequestWriter writer = new RepairRequestWriter();
    private int served;
    private ByteBuf rewritten;
    private int openForm;
    private int openFlags;

    /**
     * Answers what the cache holds of {@code nack} (validated; addressed to the sender whose data the cache has).
     *
     * @param destination the side the NACK came from (repairs go there; see {@link RepairCache#claim})
     * @param holdoffNanos a symbol served to that side more recently than this is not sent again
     */
    public Outcome answer(FeedbackFlyweight nack, RepairCache cache, Object destination, long now, long holdoffNanos,
                          ByteBufAllocator alloc, Server server) {
        served = 0;
        rewritten = null;
        int start = nack.payloadIndex();
        int end = start + nack.payloadLength();
        ByteBuf buf = nack.buffer();
        if (end - start < RepairRequestReader.REQUEST_HEADER_LENGTH + 4) {
            return Outcome.FORWARD;
        }
        int fecId = buf.getUnsignedByte(start + RepairRequestReader.REQUEST_HEADER_LENGTH);
        if (fecId != NormWire.FEC_RS8 && fecId != NormWire.FEC_SMALL_BLOCK) {
            return Outcome.FORWARD;
        }
        // Worst case a range split around held symbols becomes more requests than it was: room for twice as much.
        int headerLength = nack.headerLength();
        int maxPayload = 2 * (end - start) + 64;
        ByteBuf out = alloc.directBuffer(headerLength + maxPayload);
        out.writeBytes(buf, nack.offset(), headerLength);
        writer.reset(out, headerLength, maxPayload, fecId, 8);
        openForm = -1;
        boolean complete = true;
        int source = nack.serverId();
        int instance = nack.instanceId();
        reader.reset(buf, start, end, fecId, 8);
        while (reader.nextRequest()) {
            int form = reader.form();
            int flags = reader.flags();
            boolean answerable = flags == NormWire.REPAIR_SEGMENT
                    && (form == NormWire.FORM_ITEMS || form == NormWire.FORM_RANGES);
            while (reader.nextItem()) {
                int object = reader.objectId();
                long block = reader.blockNumber();
                int symbol = reader.symbolId();
                int blockLength = reader.blockLength();
                if (form == NormWire.FORM_RANGES) {
                    if (!reader.nextItem()) {
                        break;
                    }
                    int lastSymbol = reader.symbolId();
                    boolean sameBlock = reader.objectId() == object && reader.blockNumber() == block;
                    if (!answerable || !sameBlock || lastSymbol < symbol || lastSymbol - symbol >= MAX_RANGE_SYMBOLS) {
                        complete &= copyRange(form, flags, object, block, symbol, reader.objectId(),
                                reader.blockNumber(), lastSymbol, blockLength);
                        continue;
                    }
                    int runStart = -1;
                    for (int s = symbol; s <= lastSymbol; s++) {
                        if (tryServe(cache, source, instance, object, block, s, destination, now, holdoffNanos, server)) {
                            if (runStart >= 0) {
                                complete &= writeRun(flags, object, block, runStart, s - 1, blockLength);
                                runStart = -1;
                            }
                        } else if (runStart < 0) {
                            runStart = s;
                        }
                    }
                    if (runStart >= 0) {
                        complete &= writeRun(flags, object, block, runStart, lastSymbol, blockLength);
                    }
                } else if (answerable
                        && tryServe(cache, source, instance, object, block, symbol, destination, now, holdoffNanos,
                        server)) {
                    continue;
                } else {
                    complete &= ensureOpen(form, flags) && writer.item(object, block, symbol, blockLength);
                }
            }
        }
        writer.close();
        if (reader.malformed() || !complete || served == 0) {
            out.release();
            return Outcome.FORWARD;
        }
        if (writer.isEmpty()) {
            out.release();
            return Outcome.ANSWERED;
        }
        out.writerIndex(headerLength + writer.length());
        rewritten = out;
        return Outcome.REWRITTEN;
    }

    /** Symbols served (or found already on their way) by the last {@link #answer}. */
    public int served() {
        return served;
    }

    /** The smaller NACK of the last REWRITTEN outcome; the caller owns (and releases) it. */
    public ByteBuf rewritten() {
        ByteBuf b = rewritten;
        rewritten = null;
        return b;
    }

    private boolean tryServe(RepairCache cache, int source, int instance, int object, long block, int symbol,
                             Object destination, long now, long holdoffNanos, Server server) {
        RepairCache.Entry e = cache.find(source, instance, object, block, symbol);
        if (e == null) {
            return false;
        }
        if (cache.claim(e, destination, now, holdoffNanos)) {
            server.serve(e);
        }
        served++;
        return true;
    }

    private boolean writeRun(int flags, int object, long block, int first, int last, int blockLength) {
        if (last - first >= 2) {
            return ensureOpen(NormWire.FORM_RANGES, flags)
                    && writer.range(object, block, first, object, block, last, blockLength);
        }
        boolean ok = ensureOpen(NormWire.FORM_ITEMS, flags);
        for (int s = first; s <= last && ok; s++) {
            ok = writer.item(object, block, s, blockLength);
        }
        return ok;
    }

    private boolean copyRange(int form, int flags, int firstObject, long firstBlock, int firstSymbol, int lastObject,
                              long lastBlock, int lastSymbol, int blockLength) {
        return ensureOpen(form, flags) && writer.range(firstObject, firstBlock, firstSymbol, lastObject, lastBlock,
                lastSymbol, blockLength);
    }

    private boolean ensureOpen(int form, int flags) {
        if (openForm == form && openFlags == flags) {
            return true;
        }
        if (!writer.open(form, flags)) {
            return false;
        }
        openForm = form;
        openFlags = flags;
        return true;
    }
}
