package org.fjm2.jms;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fjm2.jms.message.Fjm2Message;
import org.fjm2.jms.wire.SharedMemberFlyweight;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One shared subscription as this connection sees it: its members here and elsewhere, and which member owns each
 * message. Every member hears every message of the topic (multicast); each decides alone, and all decide alike, by
 * rendezvous hashing of the message's origin (publisher epoch, producer, priority, sequence) over the members that
 * were candidates when the message was sent (its send time, the sender's clock): those active then, or, while none
 * was, those that had joined. A member is active {@link SharedSubscriptions#JOIN_DELAY_MILLIS} after it joins, long
 * enough for every member to have heard of it; until then it holds what it receives and decides once active.
 *
 * <p>Each member keeps a copy of the messages other members own until their heartbeats say they acknowledged them.
 * When a member leaves (its last word names what it acknowledged) or falls silent for
 * {@link SharedSubscriptions#MEMBER_TIMEOUT_MILLIS}, the messages it owned and did not acknowledge go to the member
 * that ranks next for each, flagged redelivered (it may have delivered them before it died). Guarded by this.
 *
 * <p>A durable one (createSharedDurableConsumer) is also a subscriber of the stores, once per connection: the first
 * member here asks them for what the subscription has not acknowledged ({@link DurableSubscriptions}), and their
 * answer, then live messages, are routed like live ones ({@link LateJoin.Target}). A message sent while no member
 * was joined (kept by the stores for the subscription) goes to the member that joined first. Every member keeps a
 * copy of every message it knows unacknowledged, its own included, and tells the stores, per producer stream, the
 * last number below the oldest of them ({@link SharedStoreSide}); the stores keep the furthest any member said. So a
 * member that joins later, or all members' return after all of them died, finds at the stores every message a member
 * had not acknowledged.
 */
final class SharedGroup implements LateJoin.Target {

    private static final Logger LOG = LoggerFactory.getLogger(SharedGroup.class);

    /** A subscription: client id ("" none), name, topic, selector ("" none), durable or not (two namespaces). */
    record Key(String clientId, String name, String topic, String selector, boolean durable) {
        @Override
        public String toString() {
            return "shared " + (durable ? "durable " : "") + "subscription '" + name + "'"
                    + (clientId.isEmpty() ? "" : " of client id " + clientId) + " on " + topic
                    + (selector.isEmpty() ? "" : " [" + selector + "]");
        }
    }

    /** A member here or elsewhere. */
    static final class Member {
        final long id;
        final long joinedMillis;
        final long activeFromMillis;
        long untilMillis = Long.MAX_VALUE;
        long lastHeardNanos;
        /** The consumer of a member of this connection; null for one elsewhere. */
        final Fjm2MessageConsumer consumer;
        /**
         * The last sequence number of each stream this member acknowledged of the messages it owns: moved by its
         * session here, by its records for one elsewhere.
         */
        final DurablePosition position = new DurablePosition();
        /** Copies of the messages it owns that it may not have acknowledged yet, oldest first. */
        final ArrayDeque<Fjm2Message> owned = new ArrayDeque<>();

        Member(long id, long joinedMillis, long activeFromMillis, Fjm2MessageConsumer consumer, long nowNanos) {
            this.id = id;
            this.joinedMillis = joinedMillis;
            this.activeFromMillis = activeFromMillis;
            this.consumer = consumer;
            this.lastHeardNanos = nowNanos;
        }

        boolean isLocal() {
            return consumer != null;
        }

        boolean activeAt(long sentMillis) {
            return activeFromMillis <= sentMillis && sentMillis < untilMillis;
        }

        /** Joined when the message was sent (active implies joined: a member is active from its join on). */
        boolean joinedAt(long sentMillis) {
            return joinedMillis <= sentMillis && sentMillis < untilMillis;
        }

        boolean acknowledged(Fjm2Message m) {
            return m.originSequence() <= position.through(DurablePosition.Stream.of(m));
        }
    }

    final Key key;
    private final Fjm2Topic topic;
    private final SelectorFilter selector;
    private final int maxMembers;
    private final int maxHeldCopies;
    private final Map<Long, Member> members = new LinkedHashMap<>();
    private volatile int localMemberCount;
    /** Messages received while a member here was not yet active: decided once it is. */
    private final List<Fjm2Message> waiting = new ArrayList<>();
    private int heldCopies;
    private long droppedCopies;
    private boolean membersCapLogged;
    /** The last message routed and its owner here (the fan-out asks once per consumer of the topic). */
    private Fjm2Message lastRouted;
    private Fjm2MessageConsumer lastOwner;

    /** A durable one's side facing the stores; null when not durable. */
    private final SharedStoreSide stores;

    SharedGroup(Key key, Fjm2Topic topic, SelectorFilter selector, int maxMembers, int maxHeldCopies) {
        this.key = key;
        this.topic = topic;
        this.selector = selector;
        this.maxMembers = maxMembers;
        this.maxHeldCopies = maxHeldCopies;
        this.stores = key.durable() ? new SharedStoreSide() : null;
    }

    // ------------------------------------------------------------------ members of this connection

    synchronized Member joinLocal(long id, Fjm2MessageConsumer consumer, long nowMillis, long nowNanos) {
        Member m = new Member(id, nowMillis, nowMillis + SharedSubscriptions.JOIN_DELAY_MILLIS, consumer, nowNanos);
        members.put(id, m);
        localMemberCount++;
        return m;
    }

    /** Members of this connection (read without the lock: whether its consumers may borrow from each other). */
    int localMemberCount() {
        return localMemberCount;
    }

    /**
     * A member here closed: it leaves at {@code nowMillis}; what it owned and did not acknowledge goes on. The last
     * one here of a durable subscription first moves what the stores are told (with its own copies still counted).
     *
     * @return whether it was the last member here
     */
    synchronized boolean leaveLocal(Member m, long nowMillis) {
        trim(m);
        boolean last = localMembers().size() == 1;
        if (last && stores != null) {
            advanceStorePosition();
            stores.close();     // what it had open leaves with it below: not acknowledged for that
        }
        m.untilMillis = nowMillis;
        depart(m, "closed");
        localMemberCount--;
        return last;
    }

    synchronized boolean hasLocalMembers() {
        for (Member m : members.values()) {
            if (m.isLocal()) {
                return true;
            }
        }
        return false;
    }

    synchronized List<Member> localMembers() {
        List<Member> out = new ArrayList<>();
        for (Member m : members.values()) {
            if (m.isLocal()) {
                out.add(m);
            }
        }
        return out;
    }

    /** A message a consumer here takes from the queue of another member here, and that member's consumer. */
    record Borrowed(Fjm2MessageConsumer owner, Fjm2Message message) {
    }

    /**
     * For a consumer here whose queue is empty: the next message queued for another member here that lends on
     * receive ({@link Fjm2MessageConsumer#lendsOnReceive}), or null. Consumers of one connection so compete for what
     * the connection's members own (JMS: a message goes to whichever consumer asks), while the members elsewhere
     * still see each message owned, and acknowledged, by the member it was hashed to.
     */
    Borrowed borrowFor(Fjm2MessageConsumer taker) {
        for (Member m : localMembers()) {
            Fjm2MessageConsumer owner = m.consumer;
            if (owner != taker && owner.lendsOnReceive()) {
                Fjm2Message message = owner.queue().pollIfDelivering();
                if (message != null) {
                    return new Borrowed(owner, message);
                }
            }
        }
        return null;
    }

    // ------------------------------------------------------------------ what other members say

    /** A member record from elsewhere (already decoded and checked). */
    synchronized void heard(SharedMemberFlyweight r, long nowNanos) {
        Member m = members.get(r.memberId());
        if (m != null && m.isLocal()) {
            return; // our own id on someone else's record: ignore it rather than give up a consumer here
        }
        if (m == null) {
            if (r.leaving()) {
                return;
            }
            if (members.size() >= maxMembers) {
                if (!membersCapLogged) {
                    membersCapLogged = true;
                    LOG.warn("{}: more than {} members heard; further ones are ignored (their share stays with "
                            + "the members known)", key, maxMembers);
                }
                return;
            }
            m = new Member(r.memberId(), r.joinedMillis(), r.activeFromMillis(), null, nowNanos);
            members.put(m.id, m);
            LOG.debug("{}: member {} joined (active from {})", key, Long.toHexString(m.id), m.activeFromMillis);
        }
        m.lastHeardNanos = nowNanos;
        for (int i = 0; i < r.entryCount(); i++) {
            m.position.moveTo(new DurablePosition.Stream(r.entryEpoch(i), r.entryProducer(i), r.entryPriority(i)),
                    r.entrySequence(i));
        }
        trim(m);
        if (r.leaving()) {
            m.untilMillis = Math.min(m.untilMillis, r.untilMillis());
            depart(m, "left");
        }
    }

    /** Periodic: members silent too long are gone; waiting messages decided once no member here is joining. */
    synchronized void tick(long nowMillis, long nowNanos) {
        List<Member> silent = null;
        for (Member m : members.values()) {
            if (!m.isLocal() && nowNanos - m.lastHeardNanos > SharedSubscriptions.MEMBER_TIMEOUT_MILLIS * 1_000_000L) {
                (silent == null ? silent = new ArrayList<>() : silent).add(m);
            }
        }
        if (silent != null) {
            for (Member m : silent) {
                depart(m, "silent for over " + SharedSubscriptions.MEMBER_TIMEOUT_MILLIS + " ms");
            }
        }
        if (!waiting.isEmpty() && !joining(Long.MAX_VALUE, nowMillis)) {
            List<Fjm2Message> decide = new ArrayList<>(waiting);
            waiting.clear();
            heldCopies -= decide.size();
            for (Fjm2Message message : decide) {
                Member owner = owner(message);
                if (owner != null) {
                    hand(owner, message, false);
                }
            }
        }
        for (Member m : members.values()) {
            if (m.isLocal()) {
                trim(m);
            }
        }
        advanceStorePosition();
    }

    /**
     * What a member here acknowledged since the last call (for its heartbeat), or all of it when durable (a member
     * that joins later learns what the others acknowledged before it, of the stores' answer it gets); its copies so
     * covered go.
     */
    synchronized Map<DurablePosition.Stream, Long> takeAcknowledged(Member m) {
        trim(m);
        return key.durable() ? m.position.takeAll() : m.position.takeChanged();
    }

    // ------------------------------------------------------------------ messages

    /**
     * The consumer here that owns the message, or null (another member owns it, it does not match the selector, or
     * it waits until a member here is active). Called by the fan-out for each consumer of the topic; decides once.
     */
    Fjm2MessageConsumer route(Fjm2Message message) {
        if (stores != null && stores.holdForSwitch(message)) {   // not under this: see SharedStoreSide
            return null;
        }
        return routeLive(message);
    }

    private synchronized Fjm2MessageConsumer routeLive(Fjm2Message message) {
        if (message == lastRouted) {
            return lastOwner;
        }
        lastRouted = message;
        lastOwner = null;
        if (stores != null && !stores.heardNew(message)) {
            return null;
        }
        if (selector != null && !selector.matches(message)) {
            return null;
        }
        if (joining(message.originSentMillis(), System.currentTimeMillis())) {
            hold(message.copy());
            return null;
        }
        Member owner = owner(message);
        if (owner == null) {
            return null;
        }
        if (keepsCopies()) {
            keepCopy(owner, message.copy());
        }
        lastOwner = owner.isLocal() ? owner.consumer : null;
        return lastOwner;
    }

    // ------------------------------------------------------------------ durable: the stores' answer

    /**
     * The first member here subscribes at the stores: from now on live messages are held by {@code join} until its
     * switch (then they, and the stores' answer, come through {@link #acceptJoined}).
     */
    void startStoreJoin(DurableSubscriptions.Subscriber subscriber) {
        stores.start(subscriber);
    }

    /** The first member here could not be made: nothing is held, and the next one subscribes afresh. */
    void abandonStoreJoin() {
        stores.reset();
    }

    /** The stores' subscriber of this group, or null (not durable, or no member here subscribed yet). */
    DurableSubscriptions.Subscriber storeSubscriber() {
        return stores == null ? null : stores.subscriber();
    }

    /** What the position records of a durable one say (null when not durable). */
    DurablePosition storePosition() {
        return stores == null ? null : stores.position;
    }

    @Override
    public Fjm2Topic topic() {
        return topic;
    }

    @Override
    public synchronized boolean wantsReplayed(Fjm2Message message, boolean local) {
        return selector == null || selector.matches(message);
    }

    /**
     * A message of the switch: the stores' answer, then the live ones held. Decided once no member here is joining
     * (until then every member may not yet be known to it), so that all members decide alike.
     */
    @Override
    public synchronized void acceptJoined(Fjm2Message message, long deliveryTime) {
        if (!stores.heardNew(message) || (selector != null && !selector.matches(message))) {
            return;
        }
        if (joining(Long.MAX_VALUE, System.currentTimeMillis())) {
            hold(message);
            return;
        }
        Member owner = owner(message);
        if (owner != null) {
            hand(owner, message, false);
        }
    }

    @Override
    public synchronized void joined(Map<LateJoin.Stream, Long> replayed) {
        stores.switched(replayed);
    }

    /**
     * Moves what the stores are told: per stream the newest number heard, or the last one below the oldest message
     * a member has not acknowledged (as far as this connection knows: its copies, and those waiting here).
     */
    synchronized void advanceStorePosition() {
        if (stores == null) {
            return;
        }
        List<Fjm2Message> open = new ArrayList<>(waiting);
        for (Member m : members.values()) {
            for (Fjm2Message copy : m.owned) {
                if (!m.acknowledged(copy)) {
                    open.add(copy);
                }
            }
        }
        stores.advance(open);
    }

    /**
     * Whether a member here that joined by {@code sentMillis} is not yet active at {@code nowMillis} (it waits to
     * know every member before it decides); {@code Long.MAX_VALUE}: any member here.
     */
    private boolean joining(long sentMillis, long nowMillis) {
        for (Member m : members.values()) {
            if (m.isLocal() && nowMillis < m.activeFromMillis && sentMillis >= m.joinedMillis) {
                return true;
            }
        }
        return false;
    }

    /**
     * The candidate that ranks first for the message, or null when no member was one when it was sent; of a durable
     * subscription, then the member that joined first (the stores kept it for the subscription).
     */
    private Member owner(Fjm2Message message) {
        long sent = message.originSentMillis();
        long key = messageKey(message);
        Member bestActive = null;
        long activeWeight = 0;
        Member bestJoined = null;
        long joinedWeight = 0;
        for (Member m : members.values()) {
            if (!m.joinedAt(sent)) {
                continue;
            }
            long w = weight(m.id, key);
            if (m.activeAt(sent) && (bestActive == null || Long.compareUnsigned(w, activeWeight) > 0)) {
                bestActive = m;
                activeWeight = w;
            }
            if (bestJoined == null || Long.compareUnsigned(w, joinedWeight) > 0) {
                bestJoined = m;
                joinedWeight = w;
            }
        }
        if (bestActive != null || bestJoined != null || !this.key.durable()) {
            return bestActive != null ? bestActive : bestJoined;
        }
        return firstJoined();
    }

    /** The member that joined first (ties: the higher id), or null when there is none. */
    private Member firstJoined() {
        Member first = null;
        for (Member m : members.values()) {
            if (first == null || m.joinedMillis < first.joinedMillis
                    || (m.joinedMillis == first.joinedMillis && Long.compareUnsigned(m.id, first.id) > 0)) {
                first = m;
            }
        }
        return first;
    }

    /**
     * Whether copies of the messages each member owns are kept: when another member could take them over from their
     * owner (the members gone are no longer listed), and always when durable (they say what the stores may forget).
     */
    private boolean keepsCopies() {
        return key.durable() || members.size() > 1;
    }

    private void hold(Fjm2Message copy) {
        if (heldCopies >= maxHeldCopies) {
            dropped();
            return;
        }
        heldCopies++;
        waiting.add(copy);
    }

    private void keepCopy(Member owner, Fjm2Message copy) {
        while (heldCopies >= maxHeldCopies && !evictOldest()) {
            dropped();
            return;
        }
        heldCopies++;
        owner.owned.add(copy);
    }

    /** Gives up the oldest copy kept for the member that holds most; false when there is none. */
    private boolean evictOldest() {
        Member fullest = null;
        for (Member m : members.values()) {
            if (fullest == null || m.owned.size() > fullest.owned.size()) {
                fullest = m;
            }
        }
        if (fullest == null || fullest.owned.isEmpty()) {
            return false;
        }
        fullest.owned.poll();
        heldCopies--;
        dropped();
        return true;
    }

    private void dropped() {
        if (droppedCopies++ % 10_000 == 0) {
            LOG.warn("{}: more than {} messages of other members held unacknowledged; the oldest are given up "
                    + "(should their owner die, they are not redelivered) [{} so far]", key, maxHeldCopies,
                    droppedCopies);
        }
    }

    /** Drops the copies the member acknowledged (from the oldest, up to the first it did not). */
    private void trim(Member m) {
        while (!m.owned.isEmpty() && m.acknowledged(m.owned.peek())) {
            m.owned.poll();
            heldCopies--;
        }
    }

    /** A member left or fell silent: the messages it owned and did not acknowledge go to those ranking next. */
    private void depart(Member gone, String why) {
        members.remove(gone.id);
        int redelivered = 0;
        for (Iterator<Fjm2Message> it = gone.owned.iterator(); it.hasNext(); ) {
            Fjm2Message copy = it.next();
            it.remove();
            heldCopies--;
            if (gone.acknowledged(copy)) {
                continue;
            }
            Member next = owner(copy);
            if (next == null) {
                continue;
            }
            boolean mayHaveSeen = copy.originSentMillis() < gone.untilMillis;
            if (next.isLocal()) {
                redelivered++;
            }
            hand(next, copy, mayHaveSeen);
        }
        if (gone.isLocal() || redelivered > 0 || LOG.isDebugEnabled()) {
            LOG.info("{}: member {} {}; {} of its unacknowledged messages go to members here", key,
                    Long.toHexString(gone.id), why, redelivered);
        }
    }

    /** Gives a decided message to its owner: delivered here, or kept for one elsewhere. */
    private void hand(Member owner, Fjm2Message copy, boolean redelivery) {
        if (keepsCopies()) {
            keepCopy(owner, owner.isLocal() ? copy.copy() : copy);
        }
        if (owner.isLocal()) {
            if (redelivery) {
                SessionAcknowledgements.markRedelivered(copy);
            }
            owner.consumer.acceptShared(copy);
        }
    }

    /** Copies held for other members (or waiting); for tests and the MBean. */
    synchronized int heldCopies() {
        return heldCopies;
    }

    synchronized int memberCount() {
        return members.size();
    }

    // ------------------------------------------------------------------ ranking

    static long messageKey(Fjm2Message m) {
        long h = mix(m.originEpoch());
        h = mix(h ^ ((long) m.originProducer() << 8 | m.originPriority()));
        return mix(h ^ m.originSequence());
    }

    static long weight(long memberId, long messageKey) {
        return mix(memberId ^ messageKey);
    }

    /** A 64-bit finaliser (every input bit moves every output bit): rendezvous weights must not correlate. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
