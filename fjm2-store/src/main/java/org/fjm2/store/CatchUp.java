package org.fjm2.store;

import io.netty.buffer.ByteBuf;
import org.fjm2.jms.wire.MessageHeaderFlyweight;
import org.fjm2.jms.wire.MalformedWireException;
import org.fjm2.jms.wire.StoreReplayFlyweight;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A starting store's catch-up from its peers: it asks the group's other stores for the messages of its topics they
 * received since shortly before its journal's newest ({@link StoreReplayFlyweight#CATCH_UP}), takes the first peer
 * that answers, and journals from that answer what it lacks: per producer stream, the messages after the last its
 * journal holds and before the first it received live since it started. Its acknowledgements wait until the answer
 * is complete or none came ({@link Fjm2Store}), so a publisher's quorum never counts a store that lacks what came
 * before. The answer comes from the peer's memory ({@link TopicTails}, 64 MiB): a store down for longer gets the
 * newest part, and the gap shows in its log.
 *
 * <p>Called on the receive thread (live messages, answers) and by the starting thread (waiting); guarded by this.
 */
final class CatchUp {

    /**
     * How far before its journal's newest message a store asks from: the stores' clocks may differ by this much
     * (what is asked twice is taken once).
     */
    static final long CLOCK_MARGIN_MILLIS = 10_000;
    /** How long an answer that has begun may take to complete before the store carries on without the rest. */
    static final long ANSWER_MAX_MILLIS = 60_000;
    /** Streams followed while catching up (as many as the receive path follows). */
    static final int MAX_STREAMS = StreamTracker.MAX_STREAMS;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final int ownNode;
    private final String ownName;
    private final TopicPattern topics;
    private final long requestId = RANDOM.nextLong() >>> 1;
    private final long sinceMillis;
    /** Per stream the last number the journal held at start. */
    private final Map<StreamKey, Long> recoveredLast = new HashMap<>();
    /** Per stream the first number received live since the start (the answer is wanted up to it). */
    private final Map<StreamKey, Long> firstLive = new LinkedHashMap<>();
    /** Per stream of the answer: {run start, last taken}, for the acknowledgement ranges and order. */
    private final Map<StreamKey, long[]> taken = new HashMap<>();
    private final MessageHeaderFlyweight header = new MessageHeaderFlyweight();
    /** Two readers of one record: the first checks every entry, the second takes them. */
    private final StoreReplayFlyweight check = new StoreReplayFlyweight();
    private final StoreReplayFlyweight reader = new StoreReplayFlyweight();
    private boolean lastRecordRead;
    private final CountDownLatch answerBegun = new CountDownLatch(1);
    private final CountDownLatch answerEnded = new CountDownLatch(1);
    private volatile boolean finished;
    private String answeringStore;
    private long messagesTaken;
    private long messagesOffered;

    /** @param recovered what the journal held at start */
    CatchUp(int ownNode, String ownName, TopicPattern topics, List<StoredMessage> recovered) {
        this.ownNode = ownNode;
        this.ownName = ownName;
        this.topics = topics;
        long newest = 0;
        for (StoredMessage m : recovered) {
            recoveredLast.merge(m.stream(), m.sequence(), Math::max);
            newest = Math.max(newest, m.storedAtMillis());
        }
        this.sinceMillis = newest == 0 ? 0 : Math.max(0, newest - CLOCK_MARGIN_MILLIS);
    }

    long requestId() {
        return requestId;
    }

    /** The request's time: the messages received since then are asked for (0: a journal that held nothing). */
    long sinceMillis() {
        return sinceMillis;
    }

    boolean finished() {
        return finished;
    }

    /** On the receive thread: a message of a kept topic received live. */
    void live(StreamKey stream, long sequence) {
        if (finished) {
            return;
        }
        synchronized (this) {
            if (firstLive.size() < MAX_STREAMS) {
                firstLive.putIfAbsent(stream, sequence);
            }
        }
    }

    /**
     * On the receive thread: a replay record ({@code length} bytes at {@code offset} of {@code buf}). What this store
     * should journal of it, or null when it is not an answer to this store's request, or from another peer than the
     * first that answered; after the answer's last record ({@link #lastRecordRead}), {@link #answerEnded} once that
     * is handed on. A record with an entry that does not frame is refused whole, before any entry is taken.
     *
     * @throws MalformedWireException when the record or an entry does not frame
     */
    synchronized List<PendingWrite> answer(ByteBuf buf, int offset, int length, long receivedAtMillis)
            throws MalformedWireException {
        StoreReplayFlyweight replay = check.wrapReplay(buf, offset, length);
        lastRecordRead = false;
        if (finished || replay.requesterNode() != ownNode || replay.replayRequestId() != requestId
                || replay.storeName().equals(ownName)
                || (answeringStore != null && !answeringStore.equals(replay.storeName()))) {
            return null; // not ours, our own answer (a store of the same name counts as this one), or a second peer
        }
        while (replay.nextEntry()) {
            // every entry frames, or nothing of the record is taken
        }
        replay = reader.wrapReplay(buf, offset, length);
        if (answeringStore == null) {
            answeringStore = replay.storeName();
            answerBegun.countDown();
        }
        List<PendingWrite> writes = new ArrayList<>();
        while (replay.nextEntry()) {
            messagesOffered++;
            PendingWrite write = take(replay, buf, receivedAtMillis);
            if (write != null) {
                writes.add(write);
            }
        }
        messagesTaken += writes.size();
        lastRecordRead = replay.last();
        return writes;
    }

    /** Whether the record {@link #answer} read last ended the answer. */
    synchronized boolean lastRecordRead() {
        return lastRecordRead;
    }

    /** On the receive thread: the answer's last record was read and what it brought handed to the journal. */
    synchronized void answerEnded() {
        finish();
    }

    private PendingWrite take(StoreReplayFlyweight replay, ByteBuf buf, long receivedAtMillis) {
        int offset = replay.entryRecordOffset();
        header.wrap(buf, offset);
        if ((header.flags() & MessageHeaderFlyweight.FLAG_PERSISTENT) == 0 || header.priority() > 9
                || header.sequence() < 1) {
            return null;
        }
        String topic = buf.toString(header.topicOffset(), header.topicLength(), StandardCharsets.UTF_8);
        if (!topics.matches(topic)) {
            return null;
        }
        StreamKey stream = new StreamKey(replay.entryNode(), replay.entryEpoch(), header.producerId(),
                header.priority());
        long sequence = header.sequence();
        Long had = recoveredLast.get(stream);
        Long live = firstLive.get(stream);
        long[] run = taken.get(stream);
        if ((had != null && sequence <= had) || (live != null && sequence >= live)
                || (run != null && sequence <= run[1])) {
            return null;
        }
        if (run == null) {
            if (taken.size() >= MAX_STREAMS) {
                return null;
            }
            run = new long[] {sequence, sequence};
            taken.put(stream, run);
        } else if (sequence != run[1] + 1) {
            run[0] = sequence;
        }
        run[1] = sequence;
        byte[] record = JournalRecordCodec.encode(replay.entryNode(), replay.entryEpoch(), receivedAtMillis, buf,
                offset, replay.entryRecordLength());
        return new PendingWrite(stream, run[0], sequence, record);
    }

    /**
     * Waits for the answer: {@code firstAnswerWaitMillis} for a peer to begin one, then up to
     * {@link #ANSWER_MAX_MILLIS} for its end; either way the catch-up is finished on return.
     *
     * @return whether a complete answer came
     */
    boolean await(long firstAnswerWaitMillis) throws InterruptedException {
        boolean complete = answerBegun.await(firstAnswerWaitMillis, TimeUnit.MILLISECONDS)
                && answerEnded.await(ANSWER_MAX_MILLIS, TimeUnit.MILLISECONDS);
        synchronized (this) {
            finish();
        }
        return complete;
    }

    private void finish() {
        finished = true;
        firstLive.clear();
        taken.clear();
        recoveredLast.clear();
        answerEnded.countDown();
    }

    synchronized String answeringStore() {
        return answeringStore;
    }

    synchronized long messagesTaken() {
        return messagesTaken;
    }

    synchronized long messagesOffered() {
        return messagesOffered;
    }
}
