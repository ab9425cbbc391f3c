package org.fjm2.jms;

import io.netty.buffer.ByteBuf;
import org.fjm2.jms.message.Fjm2Message;
import org.fjm2.jms.wire.MalformedWireException;
import org.fjm2.jms.wire.MessageHeaderFlyweight;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.function.Supplier;

/**
 * Delivers what this connection sends to its own consumers of the same topic (no transport loops a sender's objects
 * back). The record just encoded into the batch is decoded once, as a receiver would decode it off the wire — its
 * own message object, read-only, with the message id, timestamps and destination a remote receiver gets — and fanned
 * out like a received message (marked local, for noLocal consumers).
 *
 * <p>Nothing is allocated per message but the message itself: each priority has a lane (decoder, header flyweight,
 * list of matching consumers) that is reused. Calls for one priority never overlap, because the batcher makes them
 * under that priority's batch lock, so a lane is only ever used by one thread at a time; calls for different
 * priorities use different lanes. A lane is made on first use.
 */
final class LocalDelivery {

    private static final Logger LOG = LoggerFactory.getLogger(LocalDelivery.class);
    private static final int PRIORITIES = 10;

    private final SubscriptionTable subscriptions;
    private final Supplier<MessageDecoder> decoders;
    private final long epoch;
    private final Lane[] lanes = new Lane[PRIORITIES];

    /**
     * @param decoders makes a decoder for a lane (this connection's allow-list and temporary topics)
     * @param epoch    this connection's epoch, part of the message ids it sends
     */
    LocalDelivery(SubscriptionTable subscriptions, Supplier<MessageDecoder> decoders, long epoch) {
        this.subscriptions = subscriptions;
        this.decoders = decoders;
        this.epoch = epoch;
    }

    /**
     * Hands the record at {@code [recordOffset, recordOffset + recordLength)} of {@code batch} to this connection's
     * consumers of its topic, if any. Never blocks.
     *
     * @param priority the record's priority: the caller holds that priority's batch lock
     */
    void deliver(int priority, ByteBuf batch, int recordOffset, int recordLength) {
        if (subscriptions.consumerCount() == 0) {
            return;
        }
        Lane lane = lane(priority);
        MessageHeaderFlyweight header = lane.header.wrap(batch, recordOffset);
        SubscriptionTable.Subscription subscription = subscriptions.lookup(batch, header.topicOffset(),
                header.topicLength());
        if (subscription == null) {
            return;
        }
        long deliveryTime = header.deliveryTime();
        Fjm2Message message;
        try {
            message = lane.decoder.decode(batch, recordOffset, recordLength, subscription.topic(), epoch);
        } catch (MalformedWireException e) {
            LOG.error("could not decode our own message for local delivery (a bug): {}", e.getMessage());
            return;
        }
        subscription.fanOut(message, true, deliveryTime, lane.matching, null);
    }

    private Lane lane(int priority) {
        Lane lane = lanes[priority];
        if (lane == null) {
            lane = new Lane(decoders.get());
            lanes[priority] = lane;
        }
        return lane;
    }

    /** What the deliveries of one priority reuse. */
    private static final class Lane {
        final MessageDecoder decoder;
        final MessageHeaderFlyweight header = new MessageHeaderFlyweight();
        final ArrayList<Fjm2MessageConsumer> matching = new ArrayList<>(2);

        Lane(MessageDecoder decoder) {
            this.decoder = decoder;
        }
    }
}
