package org.fjm2.norm.receiver;

import io.netty.buffer.ByteBuf;

/**
 * One FEC block of a stream being received: the source symbols that arrived (each the whole stream payload, header
 * included, zero-padded to segment size + 8 bytes, the length NRL NORM codes stream blocks with) and, through an
 * {@link RxBlock}, which symbols arrived and the parity kept until the block decodes. Created when the first symbol
 * of the block arrives; recycled by its stream. Owned by the session's event loop.
 */
final class RxStreamBlock {

    /** The block's id (masked to the FEC scheme's block number bits). */
    long id;
    final RxBlock state = new RxBlock();
    /** Bytes charged for this block (bookkeeping and every symbol kept), given back when it is released. */
    long charged;
    private ByteBuf[] segments = new ByteBuf[0];
    private int k;

    /** Bookkeeping bytes of a block of {@code k} source symbols (charged to budgets). */
    static long bookkeepingBytes(int k, int symbolLimit) {
        return 48L + 8L * k + RxBlock.bookkeepingBytes(k, symbolLimit);
    }

    void reset(long id, int k, int symbolLimit) {
        this.id = id;
        this.k = k;
        this.charged = 0;
        if (segments.length < k || segments.length > 4 * k) {
            segments = new ByteBuf[k];
        }
        state.reset(k, symbolLimit);
    }

    /** Source symbol {@code s} (the stream payload, E + 8 bytes), or null when it has not arrived. */
    ByteBuf segment(int s) {
        return segments[s];
    }

    /** Keeps source symbol {@code s} (ownership passes to the block). */
    void put(int s, ByteBuf symbol) {
        segments[s] = symbol;
    }

    /** Drops source symbol {@code s} (a rebuild that failed); returns it for the caller to release. */
    ByteBuf take(int s) {
        ByteBuf symbol = segments[s];
        segments[s] = null;
        return symbol;
    }

    /** Releases every symbol and parity buffer; returns how many source symbols it held. */
    int release() {
        int held = 0;
        for (int s = 0; s < k; s++) {
            if (segments[s] != null) {
                segments[s].release();
                segments[s] = null;
                held++;
            }
        }
        state.releaseParity();
        return held;
    }
}
