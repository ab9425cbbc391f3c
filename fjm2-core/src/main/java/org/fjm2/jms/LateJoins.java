package org.fjm2.jms;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import jakarta.jms.JMSException;
import org.fjm2.jms.wire.StoreReplayFlyweight;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A connection's late joins in progress ({@code lateJoin=N}), by request id: starts one per new consumer (the
 * request to the stores goes out through the batcher, from a producer of the connection's own), and finds it again
 * when a store's answer names it.
 */
final class LateJoins {

    private static final Logger LOG = LoggerFactory.getLogger(LateJoins.class);
    /** Requests are sent at the default priority. */
    static final int REQUEST_PRIORITY = 4;

    private final int count;
    private final int nodeId;
    private final Map<Long, LateJoin> active = new ConcurrentHashMap<>();
    /** Random start: a request id of an earlier connection with the same node id does not match ours. */
    private final AtomicLong nextRequestId = new AtomicLong(new SecureRandom().nextLong() >>> 1);
    private final ProducerState requests;

    /**
     * @param count    messages each consumer asks for (lateJoin); 0: no late joins
     * @param nodeId   this connection's node id: answers name it
     * @param requests the producer the requests are sent from
     */
    LateJoins(int count, int nodeId, ProducerState requests) {
        this.count = count;
        this.nodeId = nodeId;
        this.requests = requests;
    }

    /** A consumer of this topic starts with a late join (not for temporary topics: no store keeps them). */
    LateJoin newJoin(LateJoin.Target consumer, Fjm2Topic topic) {
        if (count == 0 || topic.isTemporary()) {
            return null;
        }
        return new LateJoin(consumer, nextRequestId.incrementAndGet(), count);
    }

    /** Sends the join's request and arms its timeout; the consumer is registered already. */
    void request(LateJoin join, Outbound outbound, ScheduledExecutorService timer) {
        active.put(join.requestId(), join);
        try {
            timer.schedule(() -> {
                join.giveUp();
                active.remove(join.requestId());
            }, LateJoin.REPLY_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            active.remove(join.requestId());
            return;
        }
        ByteBuf record = Unpooled.buffer();
        try {
            StoreReplayFlyweight.writeRequest(record, requests.id, 0, join.requestId(), join.count(),
                    join.target().topic().name());
            outbound.sendEncoded(record, 0, record.readableBytes(), requests, REQUEST_PRIORITY);
        } catch (JMSException e) {
            LOG.warn("late join of a consumer of topic '{}': the request to the stores could not be sent ({}); it "
                    + "starts with live messages", join.target().topic().name(), e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            record.release();
        }
    }

    /** A durable consumer's return, answered like a late join (its timeout armed by the caller). */
    void track(LateJoin join) {
        active.put(join.requestId(), join);
    }

    /** On the receive thread: the join an answer is for, or null when it is not this connection's or is over. */
    LateJoin find(int requesterNode, long requestId) {
        return requesterNode == nodeId ? active.get(requestId) : null;
    }

    void finished(LateJoin join) {
        active.remove(join.requestId());
    }
}
