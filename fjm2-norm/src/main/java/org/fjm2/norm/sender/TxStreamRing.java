package org.fjm2.norm.sender;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.codec.StreamPayloadFlyweight;
import org.fjm2.norm.fec.ParityEncoder;
import org.fjm2.norm.object.BlockPartition;

/**
 * A sending stream's buffer (NORM_OBJECT_STREAM): N FEC blocks of B segments, each segment a stream payload (the
 * 8-byte stream header and up to E bytes) in a slot of E + 8 bytes, allocated once when the stream opens (its size
 * is what the application asked for). Blocks are numbered from 0 up, modulo the block number space (2^24 for
 * fec_id 5), and use the slots as a ring. The way NRL NORM runs its stream buffer:
 * <ul>
 *   <li>writing fills segments in order; a segment leaves when it is full or flushed;</li>
 *   <li>writing gets at most half the buffer ahead of what was sent: the other half keeps what was sent, for
 *       repairs;</li>
 *   <li>the oldest block is reused only when it was sent whole, nothing of it is pending or asked for, and it was
 *       neither sent nor asked for during the flow-control delay.</li>
 * </ul>
 * Per block it keeps the symbols pending transmission (first transmission, activated repairs, proactive parity)
 * and which of them are repairs, the repairs asked for during the current NACK aggregation, the longest payload (parity
 * goes out as long), and its parity, computed over segments zero-padded to E + 8 bytes on first use. Owned by the
 * session's event loop.
 */
final class TxStreamRing {

    /** Block numbers of fec_id 5 (RS8): 24 bits. */
    static final long BLOCK_MASK = 0xFFFFFFL;

    final int segmentSize;
    final int blockSize;
    final int parity;
    final int autoParity;
    /** Bytes of a segment slot: the stream header and E bytes. */
    final int symbolBytes;
    /** N: blocks in the buffer. */
    final int blocks;
    private final int words;
    private final ByteBuf data;
    private final ByteBuf parityData;
    private final ParityEncoder encoder;
    private final BlockPartition codeShape = new BlockPartition();
    private final StreamPayloadFlyweight payload = new StreamPayloadFlyweight();

    // Per slot.
    private final long[] pending;
    private final long[] repairs;
    private final long[] requested;
    private final int[] closed;
    private final int[] longest;
    private final long[] lastActivity;
    private final boolean[] parityEncoded;
    private final int[] nextFreshParity;
    private final int[] parityRequested;
    private final long[] pendingSlots;
    private final long[] requestedSlots;

    // The blocks held: lowBlock and the used - 1 after it.
    private long lowBlock;
    private int lowSlot;
    private int used;

    // Writing.
    private long writeBlock;
    private int writeSegment;
    /** Bytes in the open segment, -1 when none is open. */
    private int fill = -1;
    private long writeOffset;
    private boolean messageStart = true;
    /** Source segments closed and not sent yet. */
    private int unsent;
    private boolean anyClosed;
    private long lastClosedBlock;
    private int lastClosedSegment;

    /**
    /**
     * @param data       room for {@code blocks * B * (E + 8)} bytes (heap: parity is encoded on its array)
     * @param parityData room for {@code blocks * parity * (E + 8)} bytes, null without parity
     */
    TxStreamRing(int segmentSize, int blockSize, int parity, int autoParity, ParityEncoder encoder, ByteBuf data,
                 ByteBuf parityData, long blocks) {
        this.segmentSize = segmentSize;
        this.blockSize = blockSize;
        this.parity = parity;
        this.autoParity = autoParity;
        this.symbolBytes = segmentSize + StreamPayloadFlyweight.HEADER_LENGTH;
        this.blocks = (int) blocks;
        this.words = (blockSize + parity + 63) >>> 6;
        this.encoder = encoder;
        this.data = data;
        this.parityData = parityData;
        int n = this.blocks;
        this.pending = new long[n * words];
        this.repairs = new long[n * words];
        this.requested = new long[n * words];
        this.closed = new int[n];
        this.longest = new int[n];
        this.lastActivity = new long[n];
        this.parityEncoded = new boolean[n];
        this.nextFreshParity = new int[n];
        this.parityRequested = new int[n];
        this.pendingSlots = new long[(n + 63) >>> 6];
        this.requestedSlots = new long[(n + 63) >>> 6];
        codeShape.set((long) blockSize * symbolBytes, symbolBytes, blockSize, 0);
    }

    /** Blocks a buffer of {@code bufferBytes} holds: bufferBytes / (B * E), at least 2 (as NRL rounds it). */
    static long blocksFor(long bufferBytes, int segmentSize, int blockSize) {
        return Math.max(2, bufferBytes / ((long) segmentSize * blockSize));
    }

    /** What the FTI announces as the stream's size: the buffer, N * B * E. */
    long announcedBytes() {
        return (long) blocks * blockSize * segmentSize;
    }

    /** The stream offset the next byte written gets. */
    long writeOffset() {
        return writeOffset;
    }

    /** The oldest block held: older ones can no longer be repaired (a SQUELCH names it). */
    long lowBlock() {
        return lowBlock;
    }

    /** Whether any segment was closed (sent or to be sent). */
    boolean anyClosed() {
        return anyClosed;
    }

    long lastClosedBlock() {
        return lastClosedBlock;
    }

    int lastClosedSegment() {
        return lastClosedSegment;
    }

    /** Whether a partly filled segment is open. */
    boolean hasOpenSegment() {
        return fill > 0;
    }

    /** Source segments closed and not sent yet. */
    int unsent() {
        return unsent;
    }

    // ---- writing ------------------------------------------------------------------------------------------------

    /** The next byte written starts an application message (NRL's NormStreamMarkEom after a message). */
    void markMessageStart() {
        messageStart = true;
    }

    /**
     * Copies up to {@code length} bytes from {@code src} (at its reader index, which is moved) into segments;
     * returns how many were taken: fewer when the buffer has no room (nothing written is ever overwritten before it
     * may be).
     */
    int write(ByteBuf src, int length, long now, long flowControlNanos) {
        int taken = 0;
        while (taken < length) {
            if (fill < 0 && !openSegment(now, flowControlNanos)) {
                break;
            }
            int index = segmentIndex(slotOf(writeBlock), writeSegment);
            if (messageStart) {
                payload.wrap(data, index, symbolBytes);
                if (payload.messageStart() == 0) {
                    data.setShort(index + StreamPayloadFlyweight.MSG_START_OFFSET, fill + 1);
                }
                messageStart = false;
            }
            int n = Math.min(length - taken, segmentSize - fill);
            src.readBytes(data, index + StreamPayloadFlyweight.HEADER_LENGTH + fill, n);
            fill += n;
            taken += n;
            writeOffset += n;
            data.setShort(index + StreamPayloadFlyweight.LENGTH_OFFSET, fill);
            if (fill == segmentSize) {
                closeSegment();
            }
        }
        return taken;
    }

    /** Closes a partly filled segment so that it can leave (a flush); false when none is open. */
    boolean closeOpenSegment() {
        if (fill <= 0) {
            return false;
        }
        closeSegment();
        return true;
    }

    /** Writes the end-of-stream control segment (payload_len 0, code 0); false when the buffer has no room yet. */
    boolean writeEndOfStream(long now, long flowControlNanos) {
        closeOpenSegment();
        if (fill < 0 && !openSegment(now, flowControlNanos)) {
            return false;
        }
        closeSegment();     // the header written on opening is the control message: 0, 0, offset
        return true;
    }

    private boolean openSegment(long now, long flowControlNanos) {
        if (writeSegment == 0) {
            if (unsent >= Math.max(1, blocks / 2) * blockSize) {
                return false;           // half the buffer waits to be sent: let transmission catch up
            }
            if (used == blocks) {
                if (!reusable(lowSlot, now, flowControlNanos)) {
                    return false;
                }
                dropLowest();
            }
            int slot = (lowSlot + used) % blocks;
            used++;
            clearSlot(slot);
        }
        int index = segmentIndex(slotOf(writeBlock), writeSegment);
        data.setZero(index, symbolBytes);
        payload.wrap(data, index, symbolBytes).writeHeader(0, 0, writeOffset);
        fill = 0;
        return true;
    }

    private void closeSegment() {
        int slot = slotOf(writeBlock);
        longest[slot] = Math.max(longest[slot], StreamPayloadFlyweight.HEADER_LENGTH + Math.max(0, fill));
        setPending(slot, writeSegment, false);
        closed[slot]++;
        unsent++;
        anyClosed = true;
        lastClosedBlock = writeBlock;
        lastClosedSegment = writeSegment;
        fill = -1;
        if (++writeSegment == blockSize) {
            for (int j = 0; j < autoParity; j++) {
                setPending(slot, blockSize + j, false);     // proactive parity follows the block
            }
            nextFreshParity[slot] = autoParity;
            writeSegment = 0;
            writeBlock = (writeBlock + 1) & BLOCK_MASK;
        }
    }

    private boolean reusable(int slot, long now, long flowControlNanos) {
        return closed[slot] == blockSize && !anySet(pending, slot) && !anySet(requested, slot)
                && parityRequested[slot] == 0 && now - lastActivity[slot] >= flowControlNanos;
    }

    private void dropLowest() {
        clearSlot(lowSlot);
        lowSlot = (lowSlot + 1) % blocks;
        lowBlock = (lowBlock + 1) & BLOCK_MASK;
        used--;
    }

    private void clearSlot(int slot) {
        for (int w = 0; w < words; w++) {
            pending[slot * words + w] = 0;
            repairs[slot * words + w] = 0;
            requested[slot * words + w] = 0;
        }
        pendingSlots[slot >>> 6] &= ~(1L << slot);
        requestedSlots[slot >>> 6] &= ~(1L << slot);
        closed[slot] = 0;
        longest[slot] = 0;
        parityEncoded[slot] = false;
        nextFreshParity[slot] = 0;
        parityRequested[slot] = 0;
    }

    // ---- blocks and slots ---------------------------------------------------------------------------------------

    /** The slot of a block held, or -1. */
    int slotOf(long blockId) {
        long rel = (blockId - lowBlock) & BLOCK_MASK;
        return rel < used ? (int) ((lowSlot + rel) % blocks) : -1;
    }

    long blockOf(int slot) {
        return (lowBlock + ((slot - lowSlot + blocks) % blocks)) & BLOCK_MASK;
    }

    private int segmentIndex(int slot, int segment) {
        return (slot * blockSize + segment) * symbolBytes;
    }

    /** Whether segment {@code segment} of the block in {@code slot} was closed (it can be sent, and repaired). */
    boolean isClosed(int slot, int segment) {
        long block = blockOf(slot);
        return block != writeBlock || segment < writeSegment;
    }

    // ---- transmission -------------------------------------------------------------------------------------------

    /** The slot of the oldest block with something pending, or -1 (slots in use run circularly from lowSlot). */
    int firstPendingSlot() {
        int slot = nextSet(pendingSlots, lowSlot, blocks);
        if (slot < 0 && lowSlot > 0) {
            slot = nextSet(pendingSlots, 0, lowSlot);
        }
        return slot;
    }

    private static int nextSet(long[] bits, int from, int limit) {
        if (from >= limit) {
            return -1;
        }
        int w = from >>> 6;
        long word = bits[w] & (-1L << from);
        while (true) {
            if (word != 0) {
                int bit = (w << 6) + Long.numberOfTrailingZeros(word);
                return bit < limit ? bit : -1;
            }
            if (++w >= bits.length || (w << 6) >= limit) {
                return -1;
            }
            word = bits[w];
        }
    }

    private boolean anyPendingSlot() {
        for (long w : pendingSlots) {
            if (w != 0) {
                return true;
            }
        }
        return false;
    }

    /** Whether anything is pending transmission. */
    boolean hasPending() {
        return anyPendingSlot();
    }

    /** The lowest pending symbol of a slot. */
    int firstPendingSymbol(int slot) {
        for (int w = 0; w < words; w++) {
            long bits = pending[slot * words + w];
            if (bits != 0) {
                return (w << 6) + Long.numberOfTrailingZeros(bits);
            }
        }
        return -1;
    }

    /** Takes a pending symbol for transmission; returns whether it goes out as a repair. */
    boolean take(int slot, int symbol, long now) {
        int w = slot * words + (symbol >>> 6);
        long bit = 1L << symbol;
        boolean repair = (repairs[w] & bit) != 0;
        pending[w] &= ~bit;
        repairs[w] &= ~bit;
        if (!anySet(pending, slot)) {
            pendingSlots[slot >>> 6] &= ~(1L << slot);
        }
        if (symbol < blockSize && !repair) {
            unsent--;
        }
        lastActivity[slot] = now;
        return repair;
    }

    /** Source segment {@code segment} of a slot: its stream payload, as long as its header says. */
    ByteBuf segment(int slot, int segment) {
        int index = segmentIndex(slot, segment);
        payload.wrap(data, index, symbolBytes);
        return data.slice(index, StreamPayloadFlyweight.HEADER_LENGTH + payload.dataLength());
    }

    /** Parity symbol {@code index} of a block sent whole, as long as its longest segment (what NRL sends). */
    ByteBuf parity(int slot, int index) {
        int perBlock = parity * symbolBytes;
        if (!parityEncoded[slot]) {
            encoder.encodeBlock(data.slice(segmentIndex(slot, 0), blockSize * symbolBytes), codeShape, 0, parity,
                    parityData, slot * perBlock);
            parityEncoded[slot] = true;
        }
        return parityData.slice(slot * perBlock + index * symbolBytes, longest[slot]);
    }

    // ---- repairs ------------------------------------------------------------------------------------------------

    /** NACK results. */
    static final int REQUEST_NEW = 1;
    static final int REQUEST_NOTHING = 0;
    /** The block is no longer (or not yet) held: the sender squelches. */
    static final int REQUEST_GONE = -1;

    /** Asks for source segment {@code segment} of a block again (during aggregation). */
    int requestSegment(long block, int segment, long now) {
        int slot = slotOf(block & BLOCK_MASK);
        if (slot < 0) {
            return REQUEST_GONE;
        }
        lastActivity[slot] = now;
        if (segment >= blockSize || !isClosed(slot, segment)) {
            return REQUEST_NOTHING;
        }
        return request(slot, segment);
    }

    /** Asks for every closed source segment of a block again. */
    int requestBlock(long block, long now) {
        int slot = slotOf(block & BLOCK_MASK);
        if (slot < 0) {
            return REQUEST_GONE;
        }
        lastActivity[slot] = now;
        int result = REQUEST_NOTHING;
        for (int s = 0; s < blockSize && isClosed(slot, s); s++) {
            result = Math.max(result, request(slot, s));
        }
        return result;
    }

    /**
     * A receiver misses {@code erasures} symbols of a block and asks for parity: fresh parity when the block was
     * sent whole and has parity, else every closed source segment.
     */
    int requestParity(long block, int erasures, long now) {
        int slot = slotOf(block & BLOCK_MASK);
        if (slot < 0) {
            return REQUEST_GONE;
        }
        lastActivity[slot] = now;
        if (parity == 0 || closed[slot] < blockSize) {
            return requestBlock(block, now);
        }
        if (erasures > parityRequested[slot]) {
            parityRequested[slot] = erasures;
            requestedSlots[slot >>> 6] |= 1L << slot;
            return REQUEST_NEW;
        }
        return REQUEST_NOTHING;
    }

    private int request(int slot, int symbol) {
        int w = slot * words + (symbol >>> 6);
        long bit = 1L << symbol;
        if ((requested[w] & bit) != 0) {
            return REQUEST_NOTHING;
        }
        requested[w] |= bit;
        requestedSlots[slot >>> 6] |= 1L << slot;
        return REQUEST_NEW;
    }

    /** Whether repairs were asked for and not activated yet. */
    boolean hasRequests() {
        for (long w : requestedSlots) {
            if (w != 0) {
                return true;
            }
        }
        return false;
    }

    /** The aggregation ended: what was asked for becomes pending, as repairs. Returns whether anything did. */
    boolean activateRequests() {
        boolean any = false;
        for (int i = 0; i < used; i++) {
            int slot = (lowSlot + i) % blocks;
            if ((requestedSlots[slot >>> 6] & (1L << slot)) == 0) {
                continue;
            }
            requestedSlots[slot >>> 6] &= ~(1L << slot);
            for (int w = 0; w < words; w++) {
                long bits = requested[slot * words + w];
                if (bits != 0) {
                    // a segment still waiting for its first transmission goes out once, as that
                    repairs[slot * words + w] |= bits & ~pending[slot * words + w];
                    pending[slot * words + w] |= bits;
                    requested[slot * words + w] = 0;
                    any = true;
                }
            }
            int erasures = parityRequested[slot];
            if (erasures > 0) {
                parityRequested[slot] = 0;
                int fresh = parity - nextFreshParity[slot];
                int count = Math.min(erasures, fresh);
                for (int j = 0; j < count; j++) {
                    setPending(slot, blockSize + nextFreshParity[slot]++, true);
                }
                if (erasures > fresh) {
                    for (int j = 0; j < parity; j++) {
                        setPending(slot, blockSize + j, true);   // fresh parity ran out: all of it again
                    }
                }
                any = true;
            }
            if (anySet(pending, slot)) {
                pendingSlots[slot >>> 6] |= 1L << slot;
            }
        }
        return any;
    }

    private void setPending(int slot, int symbol, boolean repair) {
        int w = slot * words + (symbol >>> 6);
        pending[w] |= 1L << symbol;
        if (repair) {
            repairs[w] |= 1L << symbol;
        }
        pendingSlots[slot >>> 6] |= 1L << slot;
    }

    private boolean anySet(long[] bits, int slot) {
        for (int w = 0; w < words; w++) {
            if (bits[slot * words + w] != 0) {
                return true;
            }
        }
        return false;
    }

    /** Frees the buffers (the stream is done or the session closes). */
    void release() {
        if (data.refCnt() > 0) {
            data.release();
        }
        if (parityData != null && parityData.refCnt() > 0) {
            parityData.release();
        }
    }
}
