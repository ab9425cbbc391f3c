package org.fjm2.jms;

import io.netty.buffer.ByteBuf;
import jakarta.jms.DeliveryMode;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import org.fjm2.jms.message.Fjm2Message;

import java.util.function.Supplier;

/**
 * A session's sends: checks the send's options, stamps the message's header fields, then hands it to the connection's
 * batcher — or, in a transacted session, encodes it into the transaction ({@link TransactionBuffer}) until commit,
 * where the batcher numbers it (so a rollback leaves no gap for receivers to report). A message of another provider
 * is copied first and gets the header fields back afterwards. Used by the session's thread of control (and its
 * send thread for asynchronous sends, which the specification keeps from overlapping with it).
 */
final class SessionSends {

    private final Fjm2Connection connection;
    private final boolean transacted;
    private final TransactionBuffer transaction = new TransactionBuffer();

    SessionSends(Fjm2Connection connection, boolean transacted) {
        this.connection = connection;
        this.transacted = transacted;
    }

    void send(ProducerState producer, Fjm2Topic topic, Message message, int deliveryMode, int priority,
              long timeToLive, long deliveryDelay, boolean disableMessageId, boolean disableTimestamp)
            throws JMSException {
        QuorumWait wait = sendWithoutWaiting(producer, topic, message, deliveryMode, priority, timeToLive,
                deliveryDelay, disableMessageId, disableTimestamp);
        if (wait != null) {
            wait.await();
        }
    }

    /**
     * A PERSISTENT message sent whose {@code storeQuorum} acknowledgements are still to come: {@link #await} waits
     * for them, until {@code sendTimeoutMillis} after the send.
     */
    record QuorumWait(StoreQuorum stores, Supplier<String> description, int producerId, int priority,
                      long sequence, long sentNanos, long timeoutMillis) {

        void await() throws JMSException {
            stores.awaitUntil(description, producerId, priority, sequence,
                    sentNanos + timeoutMillis * 1_000_000L, timeoutMillis);
        }
    }

    /**
     * The same send without the wait for the stores: what to wait for, or null when nothing (NON_PERSISTENT, no
     * quorum, transacted). Asynchronous sends wait for it on another thread, so that the next send goes out
     * meanwhile.
     */
    QuorumWait sendWithoutWaiting(ProducerState producer, Fjm2Topic topic, Message message, int deliveryMode,
                                  int priority, long timeToLive, long deliveryDelay, boolean disableMessageId,
                                  boolean disableTimestamp) throws JMSException {
        if (message == null) {
            throw new MessageFormatException("message must not be null");
        }
        if (deliveryMode != DeliveryMode.PERSISTENT && deliveryMode != DeliveryMode.NON_PERSISTENT) {
            throw new JMSException("delivery mode must be PERSISTENT or NON_PERSISTENT, got " + deliveryMode);
        }
        if (priority < 0 || priority > 9) {
            throw new JMSException("priority must be 0..9, got " + priority);
        }
        if (topic instanceof Fjm2TemporaryTopic temp && temp.isDeleted()) {
            throw new InvalidDestinationException("temporary topic " + temp.name() + " was deleted");
        }
        Fjm2Message m = message instanceof Fjm2Message own ? own : ForeignMessages.convert(message);
        Fjm2Topic replyTo = m.getJMSReplyTo() == null ? null : Destinations.toTopic(m.getJMSReplyTo());
        long now = System.currentTimeMillis();
        m.setJMSDestination(topic);
        m.setJMSDeliveryMode(deliveryMode);
        m.setJMSPriority(priority);
        m.setJMSExpiration(timeToLive > 0 ? now + timeToLive : 0);
        m.setJMSTimestamp(disableTimestamp ? 0 : now);
        m.setJMSDeliveryTime(now + Math.max(0, deliveryDelay));
        long wireDeliveryTime = deliveryDelay > 0 ? now + deliveryDelay : 0;
        if (disableMessageId) {
            m.setJMSMessageID(null);
        }
        QuorumWait wait = null;
        try {
            if (transacted) {
                bufferTransacted(m, topic, replyTo, producer, now, wireDeliveryTime, disableMessageId,
                        disableTimestamp);
            } else {
                long sequence = connection.outbound().send(m, topic, replyTo, producer, now, wireDeliveryTime,
                        disableMessageId, disableTimestamp);
                StoreQuorum stores = connection.storeQuorum();
                if (deliveryMode == DeliveryMode.PERSISTENT && stores.required()) {
                    Fjm2Message sent = m;     // not touched by the application until the send completes (JMS)
                    wait = new QuorumWait(stores, () -> describe(sent, producer, priority, sequence), producer.id,
                            priority, sequence, System.nanoTime(), connection.settings().sendTimeoutMillis());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JMSException("interrupted while waiting for room in the transport");
        }
        if (m != message) {
            ForeignMessages.copySendHeaders(m, message);
        }
        return wait;
    }

    /** The message's id, or where it stands when the producer disabled ids. */
    private static String describe(Fjm2Message m, ProducerState producer, int priority, long sequence) {
        String id = m.getJMSMessageID();
        return id != null ? id : "of producer " + Integer.toHexString(producer.id) + ", priority " + priority
                + ", sequence " + sequence;
    }

    private void bufferTransacted(Fjm2Message m, Fjm2Topic topic, Fjm2Topic replyTo, ProducerState producer,
                                  long now, long wireDeliveryTime, boolean noId, boolean noTimestamp)
            throws JMSException {
        String messageId = noId ? null : connection.newTransactedMessageId(producer);
        ByteBuf buf = transaction.buffer();
        int start = buf.writerIndex();
        try {
            MessageEncoder.encode(buf, m, topic, replyTo, producer.id, 0, now, wireDeliveryTime, noId, noTimestamp,
                    messageId);
        } catch (IndexOutOfBoundsException e) {
            transaction.discardFrom(start);
            throw TransactionBuffer.tooLarge();
        } catch (IllegalArgumentException e) {
            transaction.discardFrom(start);
            throw new MessageFormatException("cannot encode message: " + e.getMessage());
        }
        transaction.add(start, producer, m.getJMSPriority());
        m.setJMSMessageID(messageId);
    }

    /** commit(): the transaction's sends go to the batcher, in send order. */
    void commit() throws JMSException {
        try {
            transaction.commit(connection.outbound(), connection.storeQuorum(),
                    connection.settings().sendTimeoutMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JMSException("interrupted during commit");
        }
    }

    /** rollback() or close: the transaction's sends are forgotten. */
    void discardTransaction() {
        transaction.clear();
    }
}
