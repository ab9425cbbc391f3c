package org.fjm2.norm;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.api.LossReason;
import org.fjm2.norm.api.NormListener;
import org.fjm2.norm.api.RemoteSenderInfo;

/**
 * A listener for tests: records what one session receives (object ids, sizes, CRCs, lost objects) and lets the
 * test wait for a count with a bounded wait.
 */
public final class ObjectCollector implements NormListener {

    /** One delivered object. */
    public record Received(int senderId, int objectId, int size, long crc, String info) {
    }

    /** One lost object. */
    public record Lost(int senderId, int objectId, LossReason reason) {
    }

    private final List<Received> received = new ArrayList<>();
    private final List<Lost> lost = new ArrayList<>();
    private final List<byte[]> payloads = new ArrayList<>();
    private final java.util.Map<Integer, Integer> instances = new java.util.HashMap<>();
    private final boolean keepPayloads;

    public ObjectCollector() {
        this(false);
    }

    public ObjectCollector(boolean keepPayloads) {
        this.keepPayloads = keepPayloads;
    }

    public static long crc(ByteBuf data) {
        CRC32 crc = new CRC32();
        crc.update(data.nioBuffer(data.readerIndex(), data.readableBytes()));
        return crc.getValue();
    }

    public static long crc(byte[] data) {
        CRC32 crc = new CRC32();
        crc.update(data);
        return crc.getValue();
    }

    @Override
    public synchronized void onObjectReceived(RemoteSenderInfo sender, int objectId, ByteBuf data, ByteBuf info) {
        String name = info == null ? null : info.toString(info.readerIndex(), info.readableBytes(),
                java.nio.charset.StandardCharsets.UTF_8);
        received.add(new Received(sender.nodeId(), objectId, data.readableBytes(), crc(data), name));
        instances.put(sender.nodeId(), sender.instanceId());
        if (keepPayloads) {
            byte[] b = new byte[data.readableBytes()];
            data.getBytes(data.readerIndex(), b);
            payloads.add(b);
        }
        notifyAll();
    }

    @Override
    public synchronized void onObjectLost(RemoteSenderInfo sender, int objectId, LossReason reason) {
        lost.add(new Lost(sender.nodeId(), objectId, reason));
        notifyAll();
    }

    /** Waits until received + lost reaches {@code count}; false on timeout. */
    public synchronized boolean await(int count, long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (received.size() + lost.size() < count) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    /** Waits until received + lost from one sender reaches {@code count}; false on timeout. */
    public synchronized boolean awaitFrom(int senderId, int count, long timeout, TimeUnit unit)
            throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (countFrom(senderId) < count) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    private int countFrom(int senderId) {
        int n = 0;
        for (Received r : received) {
            n += r.senderId() == senderId ? 1 : 0;
        }
        for (Lost l : lost) {
            n += l.senderId() == senderId ? 1 : 0;
        }
        return n;
    }

    /** Objects of one sender reported lost. */
    public synchronized List<Lost> lostFrom(int senderId) {
        List<Lost> from = new ArrayList<>();
        for (Lost l : lost) {
            if (l.senderId() == senderId) {
                from.add(l);
            }
        }
        return from;
    }

    /** The instance id of a sender something was received from (0 if none). */
    public synchronized int instanceOf(int senderId) {
        return instances.getOrDefault(senderId, 0);
    }

    public synchronized List<Received> received() {
        return Collections.unmodifiableList(new ArrayList<>(received));
    }

    public synchronized List<Lost> lost() {
        return Collections.unmodifiableList(new ArrayList<>(lost));
    }

    public synchronized List<byte[]> payloads() {
        return new ArrayList<>(payloads);
    }

    public synchronized int count() {
        return received.size();
    }
}
