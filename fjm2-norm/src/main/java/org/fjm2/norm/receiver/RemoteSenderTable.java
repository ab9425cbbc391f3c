package org.fjm2.norm.receiver;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

import io.netty.util.collection.IntObjectHashMap;
import org.fjm2.norm.api.LossReason;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.fec.BlockDecoder;
import org.fjm2.norm.protocol.ProtocolContext;
import org.fjm2.norm.protocol.RemoteEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The remote senders a session receives from, by NORM source_id: created on their first message, forgotten when
 * they time out, restart (new instance_id) or close, and never more than {@code maxRemoteSenders}: a new sender
 * beyond that replaces the one that has completed the fewest objects, the least recently heard among equals (its
 * incomplete objects reported lost). Each sender's objects share one {@link ReceiveBudget}. Owned by the session's
 * event loop.
 */
public final class RemoteSenderTable {

    private static final Logger LOG = LoggerFactory.getLogger(RemoteSenderTable.class);

    /**
     * Objects a sender completes here before it ranks as established when the table is full: a forged source id
     * must send this many whole objects to weigh as much as a real sender, and a new real sender reaches it in its
     * first moments of sending.
     */
    public static final int ESTABLISHED_OBJECTS = 16;

    private final ProtocolContext ctx;
    private final BlockDecoder decoder;
    private final int capacity;
    private final ReceiveBudget budget;
    private final ReceiveWindow receiveWindow;
    private final ReceiverScratch scratch = new ReceiverScratch();
    private final IntObjectHashMap<RemoteSender> byNodeId = new IntObjectHashMap<>();
    private long evicted;

    /** Told when a sender times out: one method reference for every sender, not one per sender. */
    private final java.util.function.Consumer<RemoteSender> timedOut = this::timedOut;

    /** @param receiveBufferGranted the socket's receive buffer as granted, read once the socket is open (-1: unknown) */
    public RemoteSenderTable(ProtocolContext ctx, BlockDecoder decoder, java.util.function.IntSupplier receiveBufferGranted) {
        this.ctx = ctx;
        this.decoder = decoder;
        this.capacity = ctx.config().maxRemoteSenders();
        this.budget = new ReceiveBudget(ctx.config().receiveBufferBytes());
        this.receiveWindow = new ReceiveWindow(receiveBufferGranted, ctx.config().receiveBuffer(),
                ctx.config().segmentSize() + NormConfig.DATAGRAM_HEADER_ROOM);
    }

    /** End of a read batch: flow-controlled senders hear how far we read. */
    public void reportFlow(long now) {
        receiveWindow.reportDue(now);
    }

    public ReceiveBudget budget() {
        return budget;
    }

    /** Senders known now (at most {@code maxRemoteSenders}). */
    public int size() {
        return byNodeId.size();
    }

    /** Senders replaced so far because the table was full. */
    public long evicted() {
        return evicted;
    }

    /** The sender with this id, or null. */
    public RemoteSender get(int nodeId) {
        return byNodeId.get(nodeId);
    }

    /** The sender of a message with this source and instance id: known, new, or replacing its previous run. */
    public RemoteSender heard(int nodeId, int instanceId, InetSocketAddress from) {
        RemoteSender rs = byNodeId.get(nodeId);
        if (rs != null && rs.instanceId() == instanceId) {
            return rs;
        }
        if (rs != null) {
            if (ctx.remoteEvents().allow(RemoteEvent.SENDER_RESTARTED)) {
                LOG.info("{} restarted as instance {} ({} more restarts since the last line)", rs, instanceId,
                        ctx.remoteEvents().takeSuppressed(RemoteEvent.SENDER_RESTARTED));
            }
            forget(rs, LossReason.SENDER_GONE);
        } else if (byNodeId.size() >= capacity) {
            evictLeastRecentlyHeard();
        }
        rs = new RemoteSender(ctx, nodeId, instanceId, from, decoder, budget, receiveWindow, scratch, timedOut);
        byNodeId.put(nodeId, rs);
        LOG.debug("new remote {}", rs);
        try {
            ctx.listener().onRemoteSenderNew(rs);
        } catch (RuntimeException e) {
            LOG.warn("listener failed on new sender {}", rs, e);
        }
        return rs;
    }

    /** A sender timed out (it closed itself): forget it. */
    private void timedOut(RemoteSender rs) {
        if (byNodeId.get(rs.nodeId()) == rs) {
            byNodeId.remove(rs.nodeId());
        }
        notifyGone(rs);
    }

    private void forget(RemoteSender rs, LossReason reason) {
        rs.close(reason);
        byNodeId.remove(rs.nodeId());
        notifyGone(rs);
    }

    private void notifyGone(RemoteSender rs) {
        try {
            ctx.listener().onRemoteSenderGone(rs);
        } catch (RuntimeException e) {
            LOG.warn("listener failed on sender gone {}", rs, e);
        }
    }

    /**
     * O(capacity), paid only when a new sender arrives at a full table. The sender that has completed the fewest
     * objects here (counted up to {@link #ESTABLISHED_OBJECTS}) goes first, the least recently heard among equals: a
     * flood of forged source ids, each completing an object of garbage or none, must not push out a real sender that
     * paused a moment (a real sender forgotten and heard again would sync afresh and lose what it had in flight).
     */
    private void evictLeastRecentlyHeard() {
        RemoteSender eldest = null;
        for (RemoteSender rs : byNodeId.values()) {
            if (eldest == null || rs.completedObjects() < eldest.completedObjects()
                    || (rs.completedObjects() == eldest.completedObjects()
                        && rs.lastHeardNanos() - eldest.lastHeardNanos() < 0)) {
                eldest = rs;
            }
        }
        if (eldest == null) {
            return;
        }
        evicted++;
        ctx.counters().increment(Counter.REMOTE_SENDERS_EVICTED);
        if (ctx.remoteEvents().allow(RemoteEvent.SENDER_EVICTED)) {
            LOG.warn("remote {} forgotten to make room: more than maxRemoteSenders={} senders are heard; its "
                    + "incomplete objects are reported lost ({} more since the last line)", eldest, capacity,
                    ctx.remoteEvents().takeSuppressed(RemoteEvent.SENDER_EVICTED));
        }
        forget(eldest, LossReason.SENDER_GONE);
    }

    /** Closes every sender (session closing): incomplete objects reported lost with {@code reason}. */
    public void closeAll(LossReason reason) {
        for (RemoteSender rs : byNodeId.values()) {
            rs.close(reason);
        }
        byNodeId.clear();
    }

    /** Ids of the senders known now. */
    public List<Integer> nodeIds() {
        List<Integer> ids = new ArrayList<>();
        for (RemoteSender rs : byNodeId.values()) {
            ids.add(rs.nodeId());
        }
        return ids;
    }
}
