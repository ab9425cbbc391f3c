package org.fjm2.jms;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import jakarta.jms.JMSException;
import jakarta.jms.ResourceAllocationException;

import org.fjm2.jms.wire.MessageHeaderFlyweight;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The messages a transacted session sent since its last commit or rollback, encoded at send() (so later
 * changes to the Message objects do not leak in) into one pooled buffer. Their sequence numbers are patched in
 * at commit, so a rollback leaves no gap that receivers would report as loss.
 */
final class TransactionBuffer {

    /** Most bytes one transaction may hold. */
    static final int MAX_TRANSACTION_BYTES = 256 * 1024 * 1024;

    /** One buffered message: where its record lies and who sent it at which priority. */
    record Entry(int offset, int length, ProducerState producer, int priority) {
    }

    private final List<Entry> entries = new ArrayList<>();
    private ByteBuf buffer;

    /** The buffer to encode the next record into (at its writer index). */
    ByteBuf buffer() {
        if (buffer == null) {
            buffer = PooledByteBufAllocator.DEFAULT.heapBuffer(4096, MAX_TRANSACTION_BYTES);
        }
        return buffer;
    }

    void add(int offset, ProducerState producer, int priority) {
        entries.add(new Entry(offset, buffer.writerIndex() - offset, producer, priority));
    }

    /** Restores the writer index after a record failed to encode. */
    void discardFrom(int offset) {
        buffer.writerIndex(offset);
    }

    static ResourceAllocationException tooLarge() {
        return new ResourceAllocationException("transaction larger than " + MAX_TRANSACTION_BYTES
                + " bytes: commit more often");
    }

    /**
     * Sends every buffered record through the batcher, in send order, then empties the buffer; with a store quorum,
     * returns once the stores acknowledged the last PERSISTENT record of each (producer, priority) stream, which
     * covers the earlier ones (acknowledgements are ranges).
     */
    void commit(Outbound outbound, StoreQuorum stores, long timeoutMillis) throws JMSException, InterruptedException {
        Map<List<Integer>, Long> lastPersistent = new LinkedHashMap<>();
        try {
            for (Entry e : entries) {
                long sequence = outbound.sendEncoded(buffer, e.offset(), e.length(), e.producer(), e.priority());
                boolean persistent = (buffer.getByte(e.offset() + MessageHeaderFlyweight.FLAGS_OFFSET)
                        & MessageHeaderFlyweight.FLAG_PERSISTENT) != 0;
                if (persistent && stores.required()) {
                    lastPersistent.put(List.of(e.producer().id, e.priority()), sequence);
                }
            }
        } finally {
            clear();
        }
        for (Map.Entry<List<Integer>, Long> last : lastPersistent.entrySet()) {
            int producer = last.getKey().get(0);
            int priority = last.getKey().get(1);
            stores.await("committed by producer " + Integer.toHexString(producer) + " (priority " + priority
                    + ", up to sequence " + last.getValue() + ")", producer, priority, last.getValue(), timeoutMillis);
        }
    }

    int size() {
        return entries.size();
    }

    void clear() {
        entries.clear();
        if (buffer != null) {
            buffer.release();
            buffer = null;
        }
    }
}
