package org.fjm2.norm;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.api.LossReason;
import org.fjm2.norm.api.NormListener;
import org.fjm2.norm.api.RemoteSenderInfo;

/**
 * A listener for stream tests: records what one session receives of remote senders' streams — the bytes in order
 * (from the offset the stream opened at), the marked message starts, gaps and how the stream ended — checks that
 * each delivery continues where the last ended, and lets the test wait for the end with a bounded wait.
 */
public final class StreamCollector implements NormListener {

    /** A gap the receiver reported. */
    public record Gap(long offset, long bytes) {
    }

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final List<Long> messageStarts = new ArrayList<>();
    private final List<Gap> gaps = new ArrayList<>();
    private final List<String> violations = new ArrayList<>();
    /** Each stream NORM_INFO delivered, as text. */
    private final List<String> infos = new ArrayList<>();
    private final CountDownLatch closed = new CountDownLatch(1);
    private int streamId = -1;
    private long openedAt = -1;
    private long next = -1;
    private LossReason closeReason;
    private long closedAt = -1;
    private int opened;

    @Override
    public synchronized void onStreamInfo(RemoteSenderInfo sender, int id, ByteBuf info) {
        infos.add(info.toString(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** The stream NORM_INFOs delivered, in order, as text. */
    public synchronized List<String> infos() {
        return List.copyOf(infos);
    }

    @Override
    public synchronized void onStreamOpened(RemoteSenderInfo sender, int id, long offset) {
        opened++;
        if (streamId >= 0) {
            violations.add("a second stream " + id + " opened at " + offset);
            return;
        }
        streamId = id;
        openedAt = offset;
        next = offset;
    }

    @Override
    public synchronized void onStreamData(RemoteSenderInfo sender, int id, long offset, ByteBuf data,
                                          int messageStart) {
        if (id != streamId) {
            violations.add("data of stream " + id + " (following " + streamId + ")");
            return;
        }
        if (offset != next) {
            violations.add("data at " + offset + ", expected " + next);
        }
        if (messageStart >= data.readableBytes()) {
            violations.add("message start " + messageStart + " beyond " + data.readableBytes() + " bytes");
        }
        if (messageStart >= 0) {
            messageStarts.add(offset + messageStart);
        }
        byte[] copy = new byte[data.readableBytes()];
        data.getBytes(data.readerIndex(), copy);
        bytes.writeBytes(copy);
        next = offset + copy.length;
        notifyAll();
    }

    @Override
    public synchronized void onStreamGap(RemoteSenderInfo sender, int id, long offset, long count) {
        if (offset != next) {
            violations.add("gap at " + offset + ", expected " + next);
        }
        gaps.add(new Gap(offset, count));
        next = offset + count;
    }

    @Override
    public synchronized void onStreamClosed(RemoteSenderInfo sender, int id, long offset, LossReason reason) {
        if (closedAt >= 0) {
            violations.add("closed twice");
        }
        closeReason = reason;
        closedAt = offset;
        closed.countDown();
        notifyAll();
    }

    /** Waits until the stream was closed (by its sender or given up); false on timeout. */
    public boolean awaitClosed(long timeout, TimeUnit unit) throws InterruptedException {
        return closed.await(timeout, unit);
    }

    /** Waits until at least {@code count} stream bytes arrived; false on timeout. */
    public synchronized boolean awaitBytes(long count, long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (bytes.size() < count) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    public synchronized byte[] bytes() {
        return bytes.toByteArray();
    }

    public synchronized int size() {
        return bytes.size();
    }

    /** Stream offset the first delivered byte had, -1 before the stream opened. */
    public synchronized long openedAt() {
        return openedAt;
    }

    public synchronized int streamsOpened() {
        return opened;
    }

    public synchronized List<Long> messageStarts() {
        return new ArrayList<>(messageStarts);
    }

    public synchronized List<Gap> gaps() {
        return new ArrayList<>(gaps);
    }

    public synchronized List<String> violations() {
        return new ArrayList<>(violations);
    }

    public synchronized LossReason closeReason() {
        return closeReason;
    }

    /** Offset after the last byte, as the close reported it; -1 while open. */
    public synchronized long closedAt() {
        return closedAt;
    }

    public synchronized boolean isClosed() {
        return closedAt >= 0;
    }

    @Override
    public synchronized String toString() {
        return "stream " + streamId + " opened at " + openedAt + ", " + bytes.size() + " bytes, next " + next
                + ", gaps " + gaps + ", closed " + (closedAt >= 0 ? "at " + closedAt + " (" + closeReason + ")" : "no")
                + (violations.isEmpty() ? "" : ", violations " + violations);
    }
}
