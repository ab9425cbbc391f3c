package org.fjm2.store;

import org.fjm2.jms.wire.DurableSubscriptionFlyweight;
import org.fjm2.jms.wire.StoreReplayFlyweight;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.List;

/**
 * The durable subscriptions' records, on the journal writer thread (which owns the subscriptions): a subscriber's
 * subscribe (answered once due with what the subscription has pending, {@link DurableBacklog}), position, delivered
 * and unsubscribe records; a peer store's definition and removed records, and this store's own for a peer catching
 * up ({@link #sendTo}). Every change is journaled ({@link StoreJournal}); a removed subscription is kept a while as a
 * tombstone ({@link DurableSubscriptions}).
 */
final class DurableRecords {

    private static final Logger LOG = LoggerFactory.getLogger(DurableRecords.class);

    /**
     * A durable subscriber that crashed may have been handed messages after its last delivered record (sent every
     * 50 ms while it runs): on its return, what the store received up to this long after it last heard from it is
     * flagged redelivered. Twenty flush periods: a subscriber stalled longer than that between handing a message
     * over and its next flush leaves that message unflagged.
     */
    static final long CRASH_HANDED_MARGIN_MILLIS = 1_000;

    private final StoreJournal journal;
    private final DurableSubscriptions subscriptions;
    private final DurableBacklog backlog;
    private final TopicTails tails;
    private final ReplaySender replays;
    private final JournalIds ids;
    /** The newest journal record when the store started: what a subscription learnt from a peer starts after. */
    private final long startedAfterId;
    /** Returning durable subscribers, answered once due (the same settle time as late joins). */
    private final ArrayDeque<DurableRequest> returning = new ArrayDeque<>();
    /**
     * Unsubscribes that came before this store could know every connection holding a subscription (within
     * {@link #HOLDERS_KNOWN_AFTER_MILLIS} of its start): decided then, as the stores that ran before decide.
     */
    private final ArrayDeque<DurableRequest> earlyUnsubscribes = new ArrayDeque<>();
    /**
     * From its start, a store has heard every connection that holds a subscription after this long (each says so
     * every {@link DurableSubscriptionFlyweight#HOLD_REFRESH_MILLIS}), within the 2 s an unsubscribe waits for an
     * answer.
     */
    static final long HOLDERS_KNOWN_AFTER_MILLIS = DurableSubscriptionFlyweight.HOLD_REFRESH_MILLIS + 500;
    private final long holdersKnownMillis;
    /** Unsubscribes held until then at most (more are not answered: their senders' waits fail, nothing is removed). */
    static final int MAX_EARLY_UNSUBSCRIBES = 1024;

    DurableRecords(StoreJournal journal, DurableSubscriptions subscriptions, DurableBacklog backlog, TopicTails tails,
                   ReplaySender replays, JournalIds ids) {
        this.journal = journal;
        this.subscriptions = subscriptions;
        this.backlog = backlog;
        this.tails = tails;
        this.replays = replays;
        this.ids = ids;
        this.startedAfterId = ids.newest();
        this.holdersKnownMillis = System.currentTimeMillis() + HOLDERS_KNOWN_AFTER_MILLIS;
    }

    /** When the next returning subscriber is due; Long.MAX_VALUE when none waits. */
    long nextDueMillis() {
        long due = returning.isEmpty() ? Long.MAX_VALUE : returning.peekFirst().dueMillis();
        return earlyUnsubscribes.isEmpty() ? due : Math.min(due, holdersKnownMillis);
    }

    /**
     * For a peer catching up, each subscription on {@code topics}: its definition, then its position (a definition
     * before its position), and the tombstones of those removed; returns how many subscriptions were sent.
     */
    int sendTo(TopicPattern topics) throws InterruptedException {
        int sent = 0;
        for (Subscription s : subscriptions.all()) {
            if (topics.matches(s.topic())) {
                replays.sendDefinition(s);
                replays.sendPositions(s);
                sent++;
            }
        }
        for (Subscription t : subscriptions.tombstones()) {
            if (topics.matches(t.topic())) {
                replays.sendRemoved(t);
            }
        }
        return sent;
    }

    /** Drops the tombstones older than {@link DurableSubscriptions#TOMBSTONE_MILLIS} from memory and the journal. */
    void expireTombstones(long nowMillis) {
        for (Subscription t : subscriptions.expireTombstones(nowMillis - DurableSubscriptions.TOMBSTONE_MILLIS)) {
            try {
                journal.deleteSubscription(t);
            } catch (Exception e) {
                LOG.error("could not drop the tombstone of durable subscription {}: {}", t.key(), e.toString());
            }
        }
    }

    /**
     * A durable subscription record: a subscriber's subscribe (answered when due), position, delivered, unsubscribe;
     * a peer store's definition or removed record (its catch-up answer to a store that was down).
     */
    void apply(DurableRequest request) throws InterruptedException {
        Subscription s = subscriptions.get(request.key());
        try {
            switch (request.type()) {
                case DurableSubscriptionFlyweight.TYPE_SUBSCRIBE -> {
                    if (s == null) {
                        s = create(request, ids.newest(), true);
                        if (s == null) {
                            return;
                        }
                        LOG.info("durable subscription {} on topic '{}' created", request.key(), request.topic());
                    } else if (s.shared() != request.shared()) {
                        // JMS: a shared and an unshared durable subscription may not have one client id and name
                        confirm(request, StoreReplayFlyweight.FLAG_OTHER_KIND);
                        LOG.info("durable subscription {} is {}: a subscribe as {} is refused", request.key(),
                                s.shared() ? "shared" : "unshared", request.shared() ? "shared" : "unshared");
                        return;
                    } else if (!s.sameAs(request.topic(), request.selector(), request.noLocal())) {
                        // JMS: another topic, selector or noLocal makes it a new subscription
                        replace(s, request, ids.newest(), true);
                        LOG.info("durable subscription {} replaced: now on topic '{}'", request.key(),
                                request.topic());
                    } else if (s.incarnation() == 0) {
                        s.named(request.incarnation(), request.createdMillis());
                        journal.updateSubscription(s);
                    }
                    s.returning(System.currentTimeMillis(), CRASH_HANDED_MARGIN_MILLIS);
                    s.holders().held(request.requesterNode(), System.currentTimeMillis());
                    returning.addLast(request);
                }
                case DurableSubscriptionFlyweight.TYPE_DEFINITION -> learn(request, s);
                case DurableSubscriptionFlyweight.TYPE_REMOVED -> {
                    if (s != null && s.incarnation() == request.incarnation()) {
                        bury(s);
                        LOG.info("durable subscription {} removed: a peer store says it was unsubscribed while "
                                + "this store was down", request.key());
                    }
                }
                case DurableSubscriptionFlyweight.TYPE_POSITION -> {
                    if (s == null) {
                        confirm(request, StoreReplayFlyweight.FLAG_UNKNOWN_SUBSCRIPTION);
                        return;
                    }
                    for (DurableRequest.Position p : request.positions()) {
                        s.acknowledged(p.stream(), p.sequence());
                    }
                    s.heard(System.currentTimeMillis(), false);
                    journal.updateSubscription(s);
                    confirm(request, 0);
                }
                case DurableSubscriptionFlyweight.TYPE_HELD -> {
                    if (s != null) {
                        s.holders().held(request.requesterNode(), System.currentTimeMillis());
                    }
                }
                case DurableSubscriptionFlyweight.TYPE_RELEASED -> {
                    if (s != null) {
                        s.holders().released(request.requesterNode());
                        s.heard(System.currentTimeMillis(), true); // a close, not a crash
                    }
                    confirm(request, 0);
                }
                case DurableSubscriptionFlyweight.TYPE_DELIVERED -> {
                    if (s != null) {    // in memory only: what a return's answer flags redelivered
                        for (DurableRequest.Position p : request.positions()) {
                            s.handed(p.stream(), p.sequence());
                        }
                        s.heard(System.currentTimeMillis(), false);
                    }
                }
                case DurableSubscriptionFlyweight.TYPE_UNSUBSCRIBE -> {
                    unsubscribe(request, s);
                }
                default -> { }
            }
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            LOG.error("could not journal durable subscription {}: {}; not answered", request.key(), e.toString());
        }
    }

    private void unsubscribe(DurableRequest request, Subscription s) throws Exception {
        long now = System.currentTimeMillis();
        if (now < holdersKnownMillis) {
            if (earlyUnsubscribes.size() < MAX_EARLY_UNSUBSCRIBES) {
                earlyUnsubscribes.addLast(request);
            }
            return;
        }
        if (s == null) {
            confirm(request, StoreReplayFlyweight.FLAG_UNKNOWN_SUBSCRIPTION);
            return;
        }
        Integer holder = s.holders().heldByOtherThan(request.requesterNode(), now);
        if (holder != null) {
            LOG.info("unsubscribe of durable subscription {} by node {} refused: node {} holds it",
                    request.key(), Integer.toUnsignedString(request.requesterNode()),
                    Integer.toUnsignedString(holder));
            confirm(request, StoreReplayFlyweight.FLAG_HELD_ELSEWHERE);
            return;
        }
        bury(s);
        LOG.info("durable subscription {} removed (unsubscribe)", request.key());
        confirm(request, 0);
    }

    /**
     * A new subscription as the request defines it, journaled, its messages those after {@code createdAfterId};
     * null when the store keeps as many as it may. {@code startsNow}: it starts at the newest message held of each
     * stream of its topic (a subscriber's subscribe), so that a peer that was down and learns it takes nothing older
     * as pending; otherwise the peer that defined it sends its position next.
     */
    private Subscription create(DurableRequest request, long createdAfterId, boolean startsNow) throws Exception {
        if (subscriptions.full()) {
            LOG.warn("durable subscription {} refused: the store keeps {} already", request.key(),
                    DurableSubscriptions.MAX_SUBSCRIPTIONS);
            return null;
        }
        Subscription earlier = subscriptions.unbury(request.key());
        if (earlier != null) {
            journal.deleteSubscription(earlier);
        }
        Subscription s = new Subscription(request.key(), ids.allocate(), request.topic(), request.selector(),
                request.noLocal(), createdAfterId, request.incarnation(), request.createdMillis());
        s.shared(request.shared());
        if (startsNow) {
            tails.lastSequences(request.topic()).forEach(s::acknowledged);
        }
        subscriptions.add(s);
        journal.addSubscription(s);
        return s;
    }

    /** JMS: another topic, selector or noLocal makes it a new subscription, of the request's incarnation. */
    private void replace(Subscription s, DurableRequest request, long createdAfterId, boolean startsNow)
            throws Exception {
        subscriptions.remove(s);
        s.replace(request.topic(), request.selector(), request.noLocal(), createdAfterId, request.incarnation(),
                request.createdMillis());
        s.shared(request.shared());
        if (startsNow) {
            tails.lastSequences(request.topic()).forEach(s::acknowledged);
        }
        subscriptions.add(s);
        journal.updateSubscription(s);
    }

    /**
     * A peer's definition: a subscription made (or replaced) while this store was down is taken, its messages those
     * this store received since it started (what it journaled before is older than the subscription); the peer's
     * position records follow. One this store knows as removed, or knows in a later incarnation, is not.
     */
    private void learn(DurableRequest request, Subscription s) throws Exception {
        Subscription tombstone = subscriptions.tombstone(request.key());
        if (s == null && tombstone != null && !tombstone.olderThan(request.createdMillis(), request.incarnation())) {
            return;
        }
        if (s == null) {
            if (create(request, startedAfterId, false) != null) {
                LOG.info("durable subscription {} on topic '{}' learnt from a peer store (made while this store was "
                        + "down)", request.key(), request.topic());
            }
        } else if (s.incarnation() == 0 && s.sameAs(request.topic(), request.selector(), request.noLocal())) {
            s.named(request.incarnation(), request.createdMillis());
            journal.updateSubscription(s);
        } else if (s.incarnation() != request.incarnation()
                && s.olderThan(request.createdMillis(), request.incarnation())) {
            replace(s, request, startedAfterId, false);
            LOG.info("durable subscription {} replaced as a peer store says (now on topic '{}')", request.key(),
                    request.topic());
        }
    }

    /** Unsubscribed: kept as a tombstone a while (peers that missed it learn it from this store's catch-up answer). */
    private void bury(Subscription s) throws Exception {
        subscriptions.remove(s);
        s.remove(System.currentTimeMillis());
        journal.updateSubscription(s);
        Subscription evicted = subscriptions.bury(s);
        if (evicted != null) {
            journal.deleteSubscription(evicted);
        }
    }

    /** Answers a request that wants an answer with an empty one (its flags say how it went). */
    private void confirm(DurableRequest request, int flags) throws InterruptedException {
        if (request.requestId() != 0) {
            replays.answer(new ReplayRequest(request.requesterNode(), request.requestId(), "", 0, 0, 0), List.of(),
                    flags);
        }
    }

    /**
     * What is due: unsubscribes held since the store's start once it knows every holder, then the returning durable
     * subscribers whose settle time passed (their pending messages, oldest first).
     */
    void answerDue() throws InterruptedException {
        long now = System.currentTimeMillis();
        while (!earlyUnsubscribes.isEmpty() && holdersKnownMillis <= now) {
            apply(earlyUnsubscribes.removeFirst());
        }
        while (!returning.isEmpty() && returning.peekFirst().dueMillis() <= now) {
            DurableRequest request = returning.removeFirst();
            Subscription s = subscriptions.get(request.key());
            if (s == null) {
                confirm(request, StoreReplayFlyweight.FLAG_UNKNOWN_SUBSCRIPTION);
                continue;
            }
            List<StoredMessage> pending = backlog.pending(s);
            long lost = s.takeLost();
            if (lost > 0) {
                LOG.warn("durable subscription {}: {} message(s) it had not consumed were dropped (retention or the "
                        + "memory bound of {} bytes) before it came back", s.key(), lost, DurableBacklog.MAX_BYTES);
            }
            replays.answer(new ReplayRequest(request.requesterNode(), request.requestId(), s.topic(), 0, 0, 0),
                    pending, lost > 0 ? StoreReplayFlyweight.FLAG_INCOMPLETE : 0, s::handedBefore);
            LOG.debug("durable subscription {} returned (node {}): replayed {} message(s)", s.key(),
                    Integer.toUnsignedString(request.requesterNode()), pending.size());
        }
    }
}
