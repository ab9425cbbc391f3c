package org.fjm2.jms;

import io.netty.buffer.ByteBuf;
import org.fjm2.jms.message.Fjm2Message;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which consumers of a connection listen to which topic. Changes (consumer created or closed) are rare and
 * take a lock; lookups happen per received message on the receive thread and read an immutable snapshot
 * (an open-addressing table keyed by the topic's UTF-8 bytes), so a message for a topic nobody here listens to
 * is skipped without decoding its name into a String.
 */
final class SubscriptionTable {

    /** One topic and its consumers: an immutable value, replaced on every change. */
    record Subscription(Fjm2Topic topic, Fjm2MessageConsumer[] consumers) {

        /**
         * Hands a decoded message to every consumer that wants it (noLocal, selector): copies first, the original
         * last, so no consumer can touch a message still being copied.
         *
         * @param local    sent by this connection (noLocal consumers skip it)
         * @param matching the caller's reusable list (left empty)
         * @param wakes    listener threads to wake once the caller has queued a whole batch; null: wake at once
         */
        void fanOut(Fjm2Message message, boolean local, long deliveryTime, List<Fjm2MessageConsumer> matching,
                    PendingWakes wakes) {
            matching.clear();
            for (Fjm2MessageConsumer consumer : consumers) {
                if (consumer.wants(message, local)) {
                    matching.add(consumer);
                }
            }
            int n = matching.size();
            for (int i = 0; i < n; i++) {
                matching.get(i).accept(i == n - 1 ? message : message.copy(), deliveryTime, wakes);
            }
            matching.clear();
        }
    }

    private final Map<String, Subscription> byName = new HashMap<>();
    private volatile Subscription[] table = new Subscription[8];
    private volatile int consumerCount;

    synchronized void add(Fjm2MessageConsumer consumer) {
        Fjm2Topic topic = consumer.topic();
        Subscription old = byName.get(topic.name());
        Fjm2MessageConsumer[] consumers;
        if (old == null) {
            consumers = new Fjm2MessageConsumer[] {consumer};
        } else {
            consumers = java.util.Arrays.copyOf(old.consumers(), old.consumers().length + 1);
            consumers[consumers.length - 1] = consumer;
        }
        byName.put(topic.name(), new Subscription(old == null ? topic : old.topic(), consumers));
        consumerCount++;
        rebuild();
    }

    synchronized void remove(Fjm2MessageConsumer consumer) {
        Subscription old = byName.get(consumer.topic().name());
        if (old == null) {
            return;
        }
        Fjm2MessageConsumer[] consumers = java.util.Arrays.stream(old.consumers())
                .filter(c -> c != consumer).toArray(Fjm2MessageConsumer[]::new);
        if (consumers.length == old.consumers().length) {
            return;
        }
        consumerCount--;
        if (consumers.length == 0) {
            byName.remove(consumer.topic().name());
        } else {
            byName.put(consumer.topic().name(), new Subscription(old.topic(), consumers));
        }
        rebuild();
    }

    /** True when some consumer listens to the topic of this name. */
    synchronized boolean hasConsumers(String topicName) {
        return byName.containsKey(topicName);
    }

    /** Consumers on this connection, over all topics. */
    int consumerCount() {
        return consumerCount;
    }

    /** The subscription whose topic name equals the bytes {@code [offset, offset+length)}, or null. */
    Subscription lookup(ByteBuf buf, int offset, int length) {
        Subscription[] t = table;
        int mask = t.length - 1;
        for (int i = hash(buf, offset, length) & mask; ; i = (i + 1) & mask) {
            Subscription s = t[i];
            if (s == null) {
                return null;
            }
            if (sameBytes(s.topic().utf8(), buf, offset, length)) {
                return s;
            }
        }
    }

    /** The subscription of a topic (local sends know the topic object). */
    Subscription lookup(Fjm2Topic topic) {
        byte[] name = topic.utf8();
        Subscription[] t = table;
        int mask = t.length - 1;
        for (int i = hash(name) & mask; ; i = (i + 1) & mask) {
            Subscription s = t[i];
            if (s == null) {
                return null;
            }
            if (java.util.Arrays.equals(s.topic().utf8(), name)) {
                return s;
            }
        }
    }

    private void rebuild() {
        int size = Integer.highestOneBit(Math.max(8, byName.size() * 3)) << 1; // load factor below 1/2
        Subscription[] t = new Subscription[size];
        for (Subscription s : byName.values()) {
            int i = hash(s.topic().utf8()) & (size - 1);
            while (t[i] != null) {
                i = (i + 1) & (size - 1);
            }
            t[i] = s;
        }
        table = t;
    }

    private static int hash(ByteBuf buf, int offset, int length) {
        int h = 1;
        for (int i = 0; i < length; i++) {
            h = 31 * h + buf.getByte(offset + i);
        }
        return spread(h);
    }

    private static int hash(byte[] bytes) {
        int h = 1;
        for (byte b : bytes) {
            h = 31 * h + b;
        }
        return spread(h);
    }

    private static int spread(int h) {
        return h ^ (h >>> 16);
    }

    private static boolean sameBytes(byte[] name, ByteBuf buf, int offset, int length) {
        if (name.length != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (name[i] != buf.getByte(offset + i)) {
                return false;
            }
        }
        return true;
    }
}
