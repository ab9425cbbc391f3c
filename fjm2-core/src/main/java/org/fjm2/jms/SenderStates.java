package org.fjm2.jms;

import org.fjm2.norm.util.LogLimiter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The receive path's memory of remote senders and their producer streams, within the {@link InboundLimits}: at
 * most so many senders, streams per sender and streams in all, the least recently heard going first when a cap is
 * reached, and whatever was not heard for the idle expiry going at the next sweep. The receive thread has no timer,
 * so sweeps happen on arrivals, at most once per sweep interval, and cost the expired entries plus one step per
 * sender.
 *
 * <p>Forgetting is safe: a stream heard again afterwards starts afresh from the number it brings (a late join: no
 * false gap, no false duplicate), and so does a sender, whose losses not yet reported are handed to the owner to
 * report. Since a forgotten stream comes back numbered above 1, a sender that lost any stream, and any sender that
 * may be one coming back, is no longer taken as heard from its start.
 */
final class SenderStates {

    private static final Logger LOG = LoggerFactory.getLogger(SenderStates.class);

    /** Told when a sender's state is dropped, so that what it had lost unreported is reported. */
    interface Owner {
        /** @param why what happened to the sender, to follow "the sender ..." in a report */
        void senderForgotten(SenderState sender, String why);
    }

    private final InboundLimits limits;
    private final long listeningSinceMillis;
    private final ConnectionCounters counters;
    private final Owner owner;
    private final LruTable<SenderState> senders = new LruTable<>();
    private final LogLimiter evictionLog;
    private final String expiredWhy;
    private int streamCount;
    /** The latest start time of a sender forgotten here: a sender that started no later may be that one again. */
    private long forgottenStartMillis = Long.MIN_VALUE;
    private long nextSweepNanos;

    /**
     * @param listeningSinceMillis a sender whose connection started after this (ms since 1970) was heard from its
     *                             start
     * @param nanoClock            the receive thread's clock (for the eviction log's rate)
     */
    SenderStates(InboundLimits limits, long listeningSinceMillis, ConnectionCounters counters, Owner owner,
                 LongSupplier nanoClock) {
        this.limits = limits;
        this.listeningSinceMillis = listeningSinceMillis;
        this.counters = counters;
        this.owner = owner;
        this.evictionLog = new LogLimiter(LogLimiter.DEFAULT_INTERVAL_NANOS, nanoClock);
        this.expiredWhy = "was not heard for " + TimeUnit.NANOSECONDS.toSeconds(limits.idleExpiryNanos()) + " s";
        this.nextSweepNanos = nanoClock.getAsLong();
    }

    /** The sender's state, made if new (the least recently heard sender forgotten at the cap); heard now. */
    SenderState sender(int nodeId, long nowNanos) {
        long key = Integer.toUnsignedLong(nodeId);
        SenderState state = senders.get(key);
        if (state != null) {
            senders.touch(state, nowNanos);
            return state;
        }
        if (senders.size() >= limits.maxSenders()) {
            SenderState oldest = senders.oldest();
            counters.stateEvictions.increment();
            if (evictionLog.allow()) {
                LOG.warn("forgot sender node {}, heard least recently of {} (the most this connection tracks); its next"
                                + " messages start new streams ({} more senders or streams forgotten since the last line)",
                        Integer.toUnsignedString(oldest.nodeId()), limits.maxSenders(), evictionLog.takeSuppressed());
            }
            forget(oldest, "was evicted, heard least recently of the " + limits.maxSenders()
                    + " senders this connection tracks at most");
        }
        state = new SenderState();
        senders.add(key, state, nowNanos);
        return state;
    }

    /** The sender's state, or null when none is kept. */
    SenderState find(int nodeId) {
        return senders.get(Integer.toUnsignedLong(nodeId));
    }

    /**
     * The sender's connection (re)starts with this epoch: its streams start afresh. Losses still pending are the
     * caller's to report first.
     *
     * @param startMillis the sending connection's start from its epoch, or -1 when it does not say
     */
    void startEpoch(SenderState state, long epoch, long startMillis) {
        if (state.hasEpoch) {
            rememberForgotten(state);
        }
        streamCount -= state.streams.size();
        state.streams.clear();
        state.hasEpoch = true;
        state.epoch = epoch;
        state.startMillis = startMillis;
        state.heardFromStart = startMillis >= 0 && startMillis > listeningSinceMillis
                && startMillis > forgottenStartMillis;
        state.pendingLostObjects = 0;
        state.lossReason = null;
    }

    /** The (producer, priority) stream of the sender, made if new (within the caps); heard now. */
    ProducerStream stream(SenderState state, int producerId, int priority, long nowNanos) {
        long key = streamKey(producerId, priority);
        ProducerStream stream = state.streams.get(key);
        if (stream != null) {
            state.streams.touch(stream, nowNanos);
            return stream;
        }
        if (state.streams.size() >= limits.maxStreamsPerSender()) {
            evictOldestStream(state, "it has " + limits.maxStreamsPerSender() + " streams, the most kept per sender");
        }
        while (streamCount >= limits.maxStreams()) {
            // The least recently heard sender's oldest stream is about the least recently heard of all.
            SenderState victim = senders.oldest();
            if (victim.streams.size() > 0) {
                evictOldestStream(victim, "the connection keeps at most " + limits.maxStreams() + " streams");
            } else if (victim != state) {
                forget(victim, "was evicted to make room for producer streams");
            } else {
                break;
            }
        }
        stream = new ProducerStream();
        state.streams.add(key, stream, nowNanos);
        streamCount++;
        return stream;
    }

    /** Drops the sender's state; the owner reports its pending losses. */
    void forget(SenderState state, String why) {
        senders.remove(state);
        streamCount -= state.streams.size();
        rememberForgotten(state);
        owner.senderForgotten(state, why);
    }

    /** At most once per sweep interval: forgets the senders and streams not heard for the idle expiry. */
    void sweepIfDue(long nowNanos) {
        if (nowNanos - nextSweepNanos < 0) {
            return;
        }
        nextSweepNanos = nowNanos + limits.sweepIntervalNanos();
        long cutoff = nowNanos - limits.idleExpiryNanos();
        for (SenderState s = senders.oldest(); s != null && s.heardNanos() - cutoff < 0; s = senders.oldest()) {
            LOG.debug("forgot sender node {}: not heard for {} ns", Integer.toUnsignedString(s.nodeId()),
                    nowNanos - s.heardNanos());
            forget(s, expiredWhy);
        }
        senders.forEach(s -> {
            for (ProducerStream p = s.streams.oldest(); p != null && p.heardNanos() - cutoff < 0;
                 p = s.streams.oldest()) {
                s.streams.remove(p);
                streamCount--;
                s.heardFromStart = false;
            }
        });
    }

    int senderCount() {
        return senders.size();
    }

    int streamCount() {
        return streamCount;
    }

    /** Producer ids are 32 bits, priorities 0..9: one long. */
    static long streamKey(int producerId, int priority) {
        return Integer.toUnsignedLong(producerId) << 4 | priority;
    }

    private void evictOldestStream(SenderState state, String why) {
        ProducerStream oldest = state.streams.oldest();
        state.streams.remove(oldest);
        streamCount--;
        state.heardFromStart = false;
        counters.stateEvictions.increment();
        if (evictionLog.allow()) {
            LOG.warn("forgot producer {} priority {} of sender node {}, heard least recently: {}; its next message starts"
                            + " a new stream ({} more senders or streams forgotten since the last line)",
                    Integer.toHexString((int) (oldest.key() >>> 4)), oldest.key() & 0xF,
                    Integer.toUnsignedString(state.nodeId()), why, evictionLog.takeSuppressed());
        }
    }

    private void rememberForgotten(SenderState state) {
        if (state.hasEpoch && state.startMillis > forgottenStartMillis) {
            forgottenStartMillis = state.startMillis;
        }
    }
}
