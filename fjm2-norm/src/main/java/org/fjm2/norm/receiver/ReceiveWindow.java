package org.fjm2.norm.receiver;

import java.util.ArrayList;
import java.util.function.IntSupplier;

import org.fjm2.norm.codec.FlowReport;
import org.fjm2.norm.transport.DatagramCapacity;

/**
 * How much of this session's socket buffer each flow-controlled sender may fill (the window its receivers advertise,
 * receiver-paced flow control), in bytes as the kernel charges datagrams ({@link DatagramCapacity}), and which
 * senders are owed a report at the end of the current read batch. Owned by the session's event loop.
 */
public final class ReceiveWindow {

    /**
     * Least window advertised to one sender: room for two of the largest datagrams, so the sender can send one
     * while the report of the other travels.
     */
    static final int MIN_WINDOW_DATAGRAMS = 2;

    private final IntSupplier grantedBytes;
    private final int configuredBytes;
    private final long minWindow;
    private long capacity = -1;
    private int flowSenders;
    private final ArrayList<FlowReporter> due = new ArrayList<>();

    /**
     * @param grantedBytes    the socket's receive buffer as granted (read once, after the socket opened; -1 unknown)
     * @param configuredBytes the receive buffer asked for, used when the granted size is unknown
     * @param largestDatagram the largest datagram expected (a segment with its headers)
     */
    public ReceiveWindow(IntSupplier grantedBytes, int configuredBytes, int largestDatagram) {
        this.grantedBytes = grantedBytes;
        this.configuredBytes = configuredBytes;
        this.minWindow = (long) MIN_WINDOW_DATAGRAMS * DatagramCapacity.charge(largestDatagram);
    }

    /** Bytes of the socket buffer paced traffic may fill. */
    long capacity() {
        if (capacity < 0) {
            int granted = grantedBytes.getAsInt();
            capacity = DatagramCapacity.pacedShare(granted > 0 ? granted : configuredBytes);
        }
        return capacity;
    }

    /** The window each flow-controlled sender gets, in bytes: the capacity shared between them. */
    long perSender() {
        long max = (long) FlowReport.MAX_WINDOW_UNITS * FlowReport.WINDOW_UNIT;
        return Math.min(max, Math.max(minWindow, capacity() / Math.max(1, flowSenders)));
    }

    void senderOffered() {
        flowSenders++;
    }

    void senderLeft() {
        flowSenders = Math.max(0, flowSenders - 1);
    }

    int flowSenders() {
        return flowSenders;
    }

    /** The reporter has messages to report at the end of this read batch. */
    void due(FlowReporter reporter) {
        due.add(reporter);
    }

    /** End of a read batch: the senders read from hear how far we got. */
    public void reportDue(long now) {
        for (int i = 0; i < due.size(); i++) {
            due.get(i).onReadBatchEnd(now);
        }
        due.clear();
    }
}
