package org.fjm2.jms;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import jakarta.jms.JMSException;
import org.fjm2.jms.wire.SharedMemberFlyweight;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shared subscriptions (createSharedConsumer) of a connection's consumers, without a broker: the members of a
 * subscription, in any process of the group, tell each other that they are there and what they acknowledged
 * ({@link SharedMemberFlyweight}, every {@link #HEARTBEAT_MILLIS}), and each decides alone which messages are its
 * own ({@link SharedGroup}). Groups exist only while a consumer here is a member: records of other subscriptions
 * are ignored, so what the network can make this connection hold is bounded by its own consumers.
 */
final class SharedSubscriptions {

    private static final Logger LOG = LoggerFactory.getLogger(SharedSubscriptions.class);

    /** How often each member says it is there and what it acknowledged. */
    static final long HEARTBEAT_MILLIS = 100;
    /**
     * From joining to taking its share: every member must have heard of a new one before messages sent from then on
     * arrive, or two members would disagree on who owns them. Three heartbeats.
     */
    static final long JOIN_DELAY_MILLIS = 3 * HEARTBEAT_MILLIS;
    /** A member not heard for this long is gone: its unacknowledged messages go to the others. */
    static final long MEMBER_TIMEOUT_MILLIS = 10 * HEARTBEAT_MILLIS;
    /** Members of one subscription known at most (a flood of forged members cannot grow the table beyond). */
    static final int MAX_MEMBERS = 256;
    /** Copies of other members' unacknowledged messages kept per subscription at most (the oldest go first). */
    static final int MAX_HELD_COPIES = 100_000;

    private static final SecureRandom IDS = new SecureRandom();

    private final Map<SharedGroup.Key, SharedGroup> groups = new ConcurrentHashMap<>();
    private final ProducerState records;
    private final Supplier<Outbound> outbound;
    private final ScheduledExecutorService timer;
    private ScheduledFuture<?> heartbeat;

    SharedSubscriptions(ProducerState records, Supplier<Outbound> outbound, ScheduledExecutorService timer) {
        this.records = records;
        this.outbound = outbound;
        this.timer = timer;
    }

    /**
     * The group a new consumer joins; a JMSException when a consumer here already shares the name (and client id)
     * on another topic or with another selector (the specification's rule).
     */
    synchronized SharedGroup group(String clientId, String name, Fjm2Topic topic, SelectorFilter selector,
                                   boolean durable) throws JMSException {
        SharedGroup.Key key = new SharedGroup.Key(clientId == null ? "" : clientId, name, topic.name(),
                selector == null ? "" : selector.text(), durable);
        for (SharedGroup g : groups.values()) {
            if (g.key.clientId().equals(key.clientId()) && g.key.name().equals(name) && !g.key.equals(key)
                    && g.key.durable() == durable && g.hasLocalMembers()) {
                throw new JMSException("shared subscription '" + name + "' is active here on topic "
                        + g.key.topic() + (g.key.selector().isEmpty() ? "" : " with selector " + g.key.selector())
                        + "; its consumers must use the same topic and selector");
            }
        }
        return groups.computeIfAbsent(key, k -> new SharedGroup(k, topic, selector, MAX_MEMBERS, MAX_HELD_COPIES));
    }

    /** A consumer joins: it says so at once and takes its share {@link #JOIN_DELAY_MILLIS} later. */
    SharedGroup.Member join(SharedGroup group, Fjm2MessageConsumer consumer) {
        SharedGroup.Member m;
        synchronized (this) {
            // a group whose last member here left between group() and this call is listed again
            SharedGroup listed = groups.putIfAbsent(group.key, group);
            if (listed != null && listed != group) {
                LOG.warn("{}: joined a group left meanwhile; consumers created at once may not share", group.key);
            }
            m = group.joinLocal(IDS.nextLong(), consumer, System.currentTimeMillis(), System.nanoTime());
            if (heartbeat == null) {
                heartbeat = timer.scheduleWithFixedDelay(this::tick, HEARTBEAT_MILLIS, HEARTBEAT_MILLIS,
                        TimeUnit.MILLISECONDS);
            }
        }
        send(group, m, false, Map.of());
        LOG.debug("{}: member {} joined here", group.key, Long.toHexString(m.id));
        return m;
    }

    /**
     * A consumer closed: its last word names everything it acknowledged, and the others take the rest.
     *
     * @return whether it was the group's last member here
     */
    boolean leave(SharedGroup group, SharedGroup.Member m) {
        long now = System.currentTimeMillis();
        boolean last = group.leaveLocal(m, now);
        send(group, m, true, m.position.takeAll());
        synchronized (this) {
            if (!group.hasLocalMembers()) {
                groups.remove(group.key, group);
            }
            if (groups.isEmpty() && heartbeat != null) {
                heartbeat.cancel(false);
                heartbeat = null;
            }
        }
        return last;
    }

    /** A member record from the network (decoded and checked): only groups with a member here listen. */
    void heard(SharedMemberFlyweight r) {
        SharedGroup g = groups.get(new SharedGroup.Key(r.clientId(), r.name(), r.topic(),
                r.selector() == null ? "" : r.selector(), r.durable()));
        if (g != null) {
            g.heard(r, System.nanoTime());
        }
    }

    private void tick() {
        try {
            long nowMillis = System.currentTimeMillis();
            long nowNanos = System.nanoTime();
            for (SharedGroup g : groups.values()) {
                g.tick(nowMillis, nowNanos);
                for (SharedGroup.Member m : g.localMembers()) {
                    send(g, m, false, g.takeAcknowledged(m));
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("shared subscriptions: heartbeat failed", e);
        }
    }

    /**
     * Sends a member's record(s): its acknowledgements in as many records as they need, the last one its last word
     * when {@code leaving}.
     */
    private void send(SharedGroup g, SharedGroup.Member m, boolean leaving,
                      Map<DurablePosition.Stream, Long> entries) {
        List<Map.Entry<DurablePosition.Stream, Long>> list = new ArrayList<>(entries.entrySet());
        int from = 0;
        do {
            int to = Math.min(list.size(), from + SharedMemberFlyweight.MAX_ENTRIES);
            ByteBuf record = Unpooled.buffer();
            try {
                int start = SharedMemberFlyweight.begin(record, records.id,
                        SharedMemberFlyweight.type(g.key.durable(), leaving && to == list.size()), m.id,
                        m.joinedMillis,
                        m.activeFromMillis, Math.max(m.untilMillis, m.joinedMillis), g.key.clientId(),
                        g.key.name(), g.key.topic(), g.key.selector().isEmpty() ? null : g.key.selector());
                for (Map.Entry<DurablePosition.Stream, Long> e : list.subList(from, to)) {
                    DurablePosition.Stream s = e.getKey();
                    SharedMemberFlyweight.writeEntry(record, s.epoch(), s.producer(), s.priority(), e.getValue());
                }
                SharedMemberFlyweight.end(record, start, to - from);
                outbound.get().sendEncoded(record, 0, record.readableBytes(), records,
                        SharedMemberFlyweight.PRIORITY);
            } catch (JMSException e) {
                LOG.warn("{}: a member record could not be sent ({}); the next heartbeat follows", g.key,
                        e.getMessage());
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } finally {
                record.release();
            }
            from = to;
        } while (from < list.size());
    }
}
