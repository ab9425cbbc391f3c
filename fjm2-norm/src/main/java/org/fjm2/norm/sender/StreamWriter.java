package org.fjm2.norm.sender;

import java.util.Queue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.api.FlushMode;

/**
 * One sending stream as the application sees it, from any thread: bytes and marks (message end, flush, end of
 * stream) go through a bounded queue to the session's event loop, which packs them into the stream buffer
 * ({@link TxStreamRing}) as it makes room. A writer blocks while the queue holds {@link #maxChunk()} * 2 bytes
 * (back-pressure: the buffer is full until transmission and the receivers' repairs let its oldest block go). The
 * event-loop side ({@link StreamSender}) takes what is queued and reports the end.
 */
public final class StreamWriter {

    /** Marks a chunk carries after its bytes. */
    static final int MESSAGE_END = 1;
    static final int FLUSH_PASSIVE = 2;
    static final int FLUSH_ACTIVE = 4;
    static final int END = 8;

    /** Bytes and marks handed over together. */
    record Chunk(ByteBuf data, int marks, int size) {
    }

    private final int streamId;
    private final TxStreamRing ring;
    /** Several consumers: the event loop, and a writer that finds the stream aborted under it. */
    private final Queue<Chunk> inbox = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final TxAdmission admission;
    private final Runnable wake;
    private final int maxChunk;
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile FlushMode autoFlush = FlushMode.NONE;
    private volatile boolean ended;
    private volatile boolean aborted;

    StreamWriter(int streamId, TxStreamRing ring, Runnable wake) {
        this.streamId = streamId;
        this.ring = ring;
        this.wake = wake;
        this.maxChunk = Math.max(ring.segmentSize, ring.blocks * ring.blockSize * ring.segmentSize / 8);
        this.admission = new TxAdmission(2L * maxChunk, Integer.MAX_VALUE, wake);
    }

    /** The stream's NORM transport id. */
    public int streamId() {
        return streamId;
    }

    /** Largest chunk {@link #write} takes at once. */
    public int maxChunk() {
        return maxChunk;
    }

    /** The stream buffer's size in bytes, as announced to receivers (N * B * E). */
    public long bufferBytes() {
        return ring.announcedBytes();
    }

    /**
     * Queues {@code data} (at most {@link #maxChunk()} bytes; ownership passes, it is released also on failure)
     * followed by the marks of the auto-flush mode; blocks while the queue is full. False when the timeout expired
     * first.
     *
     * @throws IllegalStateException when the stream was ended, aborted or its session closed
     */
    public boolean write(ByteBuf data, long timeout, TimeUnit unit) throws InterruptedException {
        boolean queued = false;
        try {
            int size = data.readableBytes();
            if (size > maxChunk) {
                throw new IllegalArgumentException(size + " bytes exceed the chunk bound " + maxChunk);
            }
            requireOpen();
            if (!admission.reserve(size, timeout, unit)) {
                return false;
            }
            FlushMode flush = autoFlush;
            int marks = flush == FlushMode.ACTIVE ? FLUSH_ACTIVE : flush == FlushMode.PASSIVE ? FLUSH_PASSIVE : 0;
            inbox.offer(new Chunk(data, marks, size));
            queued = true;
            if (aborted) {
                drop();     // aborted while we queued: nobody else will release it
            }
            wake.run();
            return true;
        } finally {
            if (!queued) {
                data.release();
            }
        }
    }

    /** Queues marks (no bytes): message end, flush, end of stream. */
    void mark(int marks) {
        requireOpen();
        if ((marks & END) != 0) {
            ended = true;
        }
        inbox.offer(new Chunk(null, marks, 0));
        wake.run();
    }

    /** The next byte written starts a new application message (NRL's NormStreamMarkEom). */
    public void markMessageEnd() {
        mark(MESSAGE_END);
    }

    /** Sends a partly filled segment now; ACTIVE also prompts receivers to ask for what they miss. */
    public void flush(FlushMode mode) {
        if (mode == FlushMode.ACTIVE) {
            mark(FLUSH_ACTIVE);
        } else if (mode == FlushMode.PASSIVE) {
            mark(FLUSH_PASSIVE);
        }
    }

    /** The flush that follows every write from now on (NRL's NormStreamSetAutoFlush). */
    public void autoFlush(FlushMode mode) {
        this.autoFlush = mode;
    }

    /**
     * Ends the stream gracefully: what was written is flushed, the end-of-stream mark follows, then FLUSHes; the
     * sender keeps serving repairs. {@link #awaitFinished} tells when the FLUSHes are done. Idempotent.
     */
    public void end() {
        if (!ended && !aborted) {
            mark(FLUSH_ACTIVE | END);
        }
    }

    /** Whether {@link #end} or {@link #abort} was called. */
    public boolean isEnded() {
        return ended || aborted;
    }

    /** Waits until the ended stream's end and its FLUSHes went out (or the stream was aborted); false on timeout. */
    public boolean awaitFinished(long timeout, TimeUnit unit) throws InterruptedException {
        return finished.await(timeout, unit);
    }

    /** Whether the stream is finished: ended and flushed, or aborted. */
    public boolean isFinished() {
        return finished.getCount() == 0;
    }

    private void requireOpen() {
        if (ended || aborted) {
            throw new IllegalStateException("stream " + streamId + " was " + (aborted ? "aborted" : "ended"));
        }
    }

    // ---- event loop -----------------------------------------------------------------------------------------------

    /** The next chunk handed over, or null. */
    Chunk poll() {
        return inbox.poll();
    }

    /** A chunk's bytes are all in the buffer: its room in the queue is free again. */
    void packed(Chunk chunk) {
        if (chunk.data() != null) {
            chunk.data().release();
            admission.release(chunk.size());
        }
    }

    /** The end went out and was flushed: the stream is finished. */
    void finished() {
        finished.countDown();
    }

    /**
     * The stream stops (aborted, replaced, or its session closing): queued chunks are dropped, writers waiting get an
     * IllegalStateException, the buffer is freed.
     */
    void abort() {
        aborted = true;
        admission.close();
        drop();
        finished.countDown();
    }

    private void drop() {
        Chunk c;
        while ((c = inbox.poll()) != null) {
            if (c.data() != null) {
                c.data().release();
            }
        }
    }
}
