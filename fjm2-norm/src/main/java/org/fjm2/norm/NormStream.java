package org.fjm2.norm;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.fjm2.norm.api.FlushMode;
import org.fjm2.norm.sender.StreamWriter;

/**
 * A stream this session sends (NORM_OBJECT_STREAM, RFC 5740): an unbounded byte stream, cut into segments and FEC
 * blocks that go round a buffer of fixed size; receivers join it wherever it is and get its bytes in order
 * ({@link org.fjm2.norm.api.NormListener#onStreamData}). Opened with {@link NormSession#openStream}; the calls
 * follow NRL NORM's NormStreamWrite / NormStreamFlush / NormStreamMarkEom / NormStreamClose.
 *
 * <p>An {@link OutputStream}: {@link #write} blocks while the stream buffer is full (back-pressure: its oldest block
 * goes only once it was sent and no receiver asked for it lately), {@link #flush()} sends a partly filled segment at
 * once, {@link #close()} ends the stream gracefully (the end-of-stream mark follows the data, then FLUSHes) and waits
 * until that went out. Meant for one writing thread.
 */
public final class NormStream extends OutputStream {

    /** How long {@link #close()} waits for the end of the stream to go out. */
    public static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(60);

    private final StreamWriter writer;
    private final byte[] one = new byte[1];

    NormStream(StreamWriter writer) {
        this.writer = writer;
    }

    /** The stream's NORM transport id (what receivers see as its stream id). */
    public int streamId() {
        return writer.streamId();
    }

    /** The stream buffer, bytes (N blocks of B segments of E bytes), as announced to receivers. */
    public long bufferBytes() {
        return writer.bufferBytes();
    }

    @Override
    public void write(int b) throws IOException {
        one[0] = (byte) b;
        write(one, 0, 1);
    }

    /** Copies the bytes into the stream, blocking while its buffer is full. */
    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        int done = 0;
        while (done < len) {
            int n = Math.min(len - done, writer.maxChunk());
            ByteBuf chunk = Unpooled.buffer(n, n);
            chunk.writeBytes(b, off + done, n);
            try {
                while (!writer.write(chunk.retain(), 1, TimeUnit.SECONDS)) {
                    // still full: keep waiting (the session's event loop makes room as receivers let it)
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while the stream buffer was full");
            } catch (IllegalStateException e) {
                throw new IOException(e.getMessage(), e);
            } finally {
                chunk.release();
            }
            done += n;
        }
    }

    /**
     * Writes the readable bytes of {@code data}, waiting at most {@code timeout} for room; returns how many were
     * taken (fewer when the timeout expired first). {@code data} stays the caller's: its reader index moves past
     * what was taken.
     */
    public int write(ByteBuf data, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        int taken = 0;
        while (data.isReadable()) {
            int n = Math.min(data.readableBytes(), writer.maxChunk());
            ByteBuf chunk = data.retainedSlice(data.readerIndex(), n);
            long left = Math.max(0, deadline - System.nanoTime());
            if (!writer.write(chunk, left, TimeUnit.NANOSECONDS)) {
                return taken;
            }
            data.skipBytes(n);
            taken += n;
        }
        return taken;
    }

    /** The next byte written starts a new message: receivers see where it starts (NormStreamMarkEom). */
    public void markEndOfMessage() {
        writer.markMessageEnd();
    }

    /** Sends a partly filled segment now ({@link FlushMode#PASSIVE}). */
    @Override
    public void flush() {
        writer.flush(FlushMode.PASSIVE);
    }

    /** Flushes: PASSIVE sends a partly filled segment now; ACTIVE also prompts receivers to ask for what they miss. */
    public void flush(FlushMode mode) {
        writer.flush(mode);
    }

    /** The flush that follows every write from now on (NormStreamSetAutoFlush); NONE by default. */
    public void setAutoFlush(FlushMode mode) {
        writer.autoFlush(mode);
    }

    /** Ends the stream gracefully without waiting (the end-of-stream mark follows what was written). */
    public void end() {
        writer.end();
    }

    /** Waits until the end of the stream went out and was flushed; false on timeout. */
    public boolean awaitFinished(Duration timeout) throws InterruptedException {
        return writer.awaitFinished(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Ends the stream gracefully and waits (up to {@link #CLOSE_TIMEOUT}) until its end went out. Idempotent. */
    @Override
    public void close() throws IOException {
        writer.end();
        try {
            if (!writer.awaitFinished(CLOSE_TIMEOUT.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new IOException("the end of stream " + streamId() + " did not go out within " + CLOSE_TIMEOUT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while the end of the stream went out");
        }
    }
}
