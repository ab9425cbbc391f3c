package org.fjm2.tunnel.relay;

import io.netty.buffer.ByteBuf;
import java.util.ArrayDeque;

/**
 * Paces one peer's WAN leg: a token bucket (GCRA, in virtual time) at the configured link rate, counting IP and UDP
 * headers, with {@code burstBytes} of tolerance, in front of a bounded queue. Urgent frames (feedback, repairs
 * served from the cache, keepalives) leave before queued data but use the same link time. What does not fit in the
 * queue is refused, and the caller counts and drops it: NORM repair recovers it. One thread.
 */
public final class WanPacer {

    /** IPv4 and UDP headers, counted against the rate like the link does. */
    public static final int IP_UDP_OVERHEAD = 28;

    /** Where {@link #drain} sends the frames that may leave now. */
    public interface Sink {
        void send(ByteBuf frame);
    }

    private final double nanosPerByte;
    private final long burstNanos;
    private final long queueLimitBytes;
    private final ArrayDeque<ByteBuf> urgent = new ArrayDeque<>();
    private final ArrayDeque<ByteBuf> normal = new ArrayDeque<>();
    private long queuedBytes;
    private long theoreticalArrival = Long.MIN_VALUE;

    /**
     * @param rateBitsPerSecond link rate, 0 for unpaced
     * @param burstBytes bytes that may leave back to back above the rate
     * @param queueLimitBytes bytes that may wait
     */
    public WanPacer(long rateBitsPerSecond, int burstBytes, long queueLimitBytes) {
        this.nanosPerByte = rateBitsPerSecond <= 0 ? 0 : 8e9 / rateBitsPerSecond;
        this.burstNanos = (long) (burstBytes * nanosPerByte);
        this.queueLimitBytes = queueLimitBytes;
    }

    /** Queues a frame; false (the frame is not taken) when the queue is full. */
    public boolean offer(ByteBuf frame, boolean isUrgent) {
        int size = frame.readableBytes();
        if (queuedBytes + size > queueLimitBytes) {
            return false;
        }
        queuedBytes += size;
        (isUrgent ? urgent : normal).addLast(frame);
        return true;
    }

    /**
     * Sends what the bucket allows at {@code now}; returns when to call again ({@code Long.MAX_VALUE} when the queue is
     * empty).
     */
    public long drain(long now, Sink sink) {
        while (true) {
            ArrayDeque<ByteBuf> q = !urgent.isEmpty() ? urgent : normal;
            ByteBuf next = q.peekFirst();
            if (next == null) {
                return Long.MAX_VALUE;
            }
            if (nanosPerByte > 0) {
                if (theoreticalArrival == Long.MIN_VALUE || theoreticalArrival < now) {
                    theoreticalArrival = now;
                }
                if (theoreticalArrival - now > burstNanos) {
                    return theoreticalArrival - burstNanos;
                }
                theoreticalArrival += (long) ((next.readableBytes() + IP_UDP_OVERHEAD) * nanosPerByte);
            }
            q.pollFirst();
            queuedBytes -= next.readableBytes();
            sink.send(next);
        }
    }

    public long queuedBytes() {
        return queuedBytes;
    }

    public boolean isEmpty() {
        return urgent.isEmpty() && normal.isEmpty();
    }

    /** Releases everything queued; returns how many frames that was. */
    public int clear() {
        int n = urgent.size() + normal.size();
        for (ByteBuf b : urgent) {
            b.release();
        }
        for (ByteBuf b : normal) {
            b.release();
        }
        urgent.clear();
        normal.clear();
        queuedBytes = 0;
        return n;
    }
}
