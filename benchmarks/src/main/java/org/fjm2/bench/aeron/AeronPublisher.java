package org.fjm2.bench.aeron;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.aeron.logbuffer.BufferClaim;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.fjm2.bench.jms.NumberedPublisher;

/**
 * The Aeron side of a {@link NumberedPublisher}, and the latency benchmark's Aeron sender: an exclusive publication
 * (one writer thread) on its own embedded driver, sending each message as soon as flow control lets it:
 * {@code tryClaim} (written in place in the log) when it fits one frame, {@code offer} (fragmented) when larger. The
 * first 8 bytes of every payload are its number (little-endian, Agrona's order), the next 8 a time stamp where the
 * payload has room (latency); a back-pressured or not yet connected publication idles
 * ({@link AeronBaseline#idleStrategy()}) and tries again, as a blocking JMS send would wait.
 */
public final class AeronPublisher implements NumberedPublisher {

    private final EmbeddedAeron embedded;
    private final ExclusivePublication publication;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean running;
    private volatile long nextSeq;
    private Thread thread;
    // used by one sending thread at a time: the publisher's thread, or the caller of send(seq, stamp, size)
    private final BufferClaim claim = new BufferClaim();
    private final IdleStrategy sendIdle = AeronBaseline.idleStrategy();
    private UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(0));

    public AeronPublisher(String channel, int streamId) {
        embedded = EmbeddedAeron.start("pub");
        try {
            publication = embedded.aeron().addExclusivePublication(channel, streamId);
        } catch (RuntimeException e) {
            embedded.close();
            throw e;
        }
    }

    /** Waits until the flow control group is complete (every subscriber's driver answered). */
    @Override
    public void awaitSubscribers(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!publication.isConnected()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Aeron publication " + publication.channel()
                        + " found no complete group of subscribers within " + timeout);
            }
            Thread.sleep(1);
        }
    }

    @Override
    public void start(int size) {
        if (size < Long.BYTES || size > publication.maxMessageLength()) {
            throw new IllegalArgumentException("Aeron message size " + size + " not in 8.." + publication.maxMessageLength());
        }
        running = true;
        thread = new Thread(() -> {
            try {
                send(size);
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "aeron-publisher");
        thread.start();
    }

    private void send(int size) {
        IdleStrategy idle = AeronBaseline.idleStrategy();
        long seq = nextSeq;
        while (running) {
            long result = trySend(seq, 0, size);
            if (result > 0) {
                nextSeq = ++seq;
                idle.reset();
            } else {
                idle.idle();
            }
        }
    }

    /**
     * Sends one message of {@code size} bytes whose first two longs are {@code seq} and {@code stamp}, waiting as
     * long as flow control holds it back (a blocking send, for the latency benchmark's one sending thread).
     */
    public void send(long seq, long stamp, int size) {
        IdleStrategy idle = sendIdle;
        idle.reset();
        while (trySend(seq, stamp, size) <= 0) {
            idle.idle();
        }
    }

    /**
     * One attempt to send: the new stream position when sent, else the publication's code for why not (back
     * pressure, not connected, admin action); a closed publication or an exhausted stream throws.
     */
    private long trySend(long seq, long stamp, int size) {
        long result;
        if (size <= publication.maxPayloadLength()) {
            result = publication.tryClaim(size, claim);
            if (result > 0) {
                claim.buffer().putLong(claim.offset(), seq);
                if (size >= 2 * Long.BYTES) {
                    claim.buffer().putLong(claim.offset() + Long.BYTES, stamp);
                }
                claim.commit();
            }
        } else {
            if (message.capacity() < size) {
                message = new UnsafeBuffer(ByteBuffer.allocateDirect(size));
            }
            message.putLong(0, seq);
            message.putLong(Long.BYTES, stamp);
            result = publication.offer(message, 0, size);
        }
        if (result == Publication.CLOSED || result == Publication.MAX_POSITION_EXCEEDED) {
            throw new IllegalStateException("Aeron publication failed: " + Publication.errorString(result));
        }
        return result;
    }

    @Override
    public long stop() throws InterruptedException {
        running = false;
        thread.join();
        Throwable e = failure.get();
        if (e != null) {
            throw new IllegalStateException("Aeron publisher failed after " + nextSeq + " messages", e);
        }
        return nextSeq - 1;
    }

    @Override
    public void close() {
        publication.close();
        embedded.close();
    }
}
