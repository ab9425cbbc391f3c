package org.fjm2.store;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.fjm2.jms.wire.MessageHeaderFlyweight;

import java.nio.charset.StandardCharsets;

/**
 * A message as the store keeps it: the FJM2 message record exactly as the publisher encoded it (topic, producer id,
 * sequence, headers, properties, body: fjm2-core's docs/wire-format.md), with what the record does not say itself —
 * the publishing connection (node id and epoch, from the batch) — and when the store received it.
 *
 * @param id             the store's journal record id: ascending in the order the store received messages, which
 *                       keeps every producer's order
 * @param node           the publisher's node id
 * @param epoch          the publisher's connection epoch
 * @param storedAtMillis when the store received it (wall clock), for retention
 * @param record         the message record
 */
public final class StoredMessage {

    private final long id;
    private final int node;
    private final long epoch;
    private final long storedAtMillis;
    private final byte[] record;
    /**
     * Decoded once when first asked: the topic is asked per message by the tails, the backlog and every subscription
     * of the topic (an immutable String: a race only decodes it twice).
     */
    private String topic;

    public StoredMessage(long id, int node, long epoch, long storedAtMillis, byte[] record) {
        this.id = id;
        this.node = node;
        this.epoch = epoch;
        this.storedAtMillis = storedAtMillis;
        this.record = record;
    }

    public long id() {
        return id;
    }

    public int node() {
        return node;
    }

    public long epoch() {
        return epoch;
    }

    public long storedAtMillis() {
        return storedAtMillis;
    }

    public byte[] record() {
        return record;
    }

    private MessageHeaderFlyweight header() {
        return new MessageHeaderFlyweight().wrap(Unpooled.wrappedBuffer(record), 0);
    }

    public String topic() {
        String t = topic;
        if (t == null) {
            MessageHeaderFlyweight h = header();
            ByteBuf buf = Unpooled.wrappedBuffer(record);
            t = buf.toString(h.topicOffset(), h.topicLength(), StandardCharsets.UTF_8);
            topic = t;
        }
        return t;
    }

    public int producerId() {
        return header().producerId();
    }

    public int priority() {
        return header().priority();
    }

    public long sequence() {
        return header().sequence();
    }

    public boolean persistent() {
        return (header().flags() & MessageHeaderFlyweight.FLAG_PERSISTENT) != 0;
    }

    StreamKey stream() {
        MessageHeaderFlyweight h = header();
        return new StreamKey(node, epoch, h.producerId(), h.priority());
    }
}
