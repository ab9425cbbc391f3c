package org.fjm2.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.fjm2.jms.wire.MalformedWireException;
import org.fjm2.jms.wire.StoreReplayFlyweight;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

/** What a starting store takes from a peer's catch-up answer, decided without a network. */
class CatchUpTest {

    static final int OWN_NODE = 11;
    static final int PUBLISHER = 42;
    static final long EPOCH = 99L;
    static final int PRODUCER = 7;
    static final StreamKey STREAM = new StreamKey(PUBLISHER, EPOCH, PRODUCER, 4);

    private static byte[] message(String topic, long sequence, boolean persistent) {
        ByteBuf r = JournalTest.record(topic, PRODUCER, sequence);
        if (!persistent) {
            r.setByte(5, 0);
        }
        return ByteBufUtil.getBytes(r);
    }

    private static StoredMessage recovered(long id, long sequence, long storedAt) {
        return new StoredMessage(id, PUBLISHER, EPOCH, storedAt, message("orders", sequence, true));
    }

    /** One replay record of {@code store}'s answer to {@code catchUp}, holding the messages given. */
    private static ByteBuf answer(CatchUp catchUp, String store, boolean last, byte[]... messages) {
        ByteBuf buf = Unpooled.buffer();
        int start = StoreReplayFlyweight.beginReplay(buf, 1, catchUp.requestId(), OWN_NODE, store);
        int bytes = 0;
        for (byte[] m : messages) {
            StoreReplayFlyweight.writeEntry(buf, PUBLISHER, EPOCH, m);
            bytes += StoreReplayFlyweight.ENTRY_OVERHEAD + m.length;
        }
        StoreReplayFlyweight.endReplay(buf, start, messages.length, last, bytes);
        return buf;
    }

    private static List<Long> take(CatchUp catchUp, ByteBuf answer) throws Exception {
        List<PendingWrite> writes = catchUp.answer(answer, 0, answer.readableBytes(), 5_000);
        if (writes == null) {
            return null;
        }
        if (catchUp.lastRecordRead()) {
            catchUp.answerEnded();
        }
        List<Long> sequences = new ArrayList<>();
        for (PendingWrite w : writes) {
            assertThat(w.stream()).isEqualTo(STREAM);
            StoredMessage journaled = JournalRecordCodec.decode(1, w.journalRecord());
            assertThat(journaled.node()).isEqualTo(PUBLISHER);
            assertThat(journaled.storedAtMillis()).isEqualTo(5_000);
            assertThat(journaled.sequence()).isEqualTo(w.sequence());
            sequences.add(w.sequence());
        }
        return sequences;
    }

    @Test
    void itAsksFromShortlyBeforeItsNewestMessageAndFromTheStartWhenItsJournalWasEmpty() {
        CatchUp fromJournal = new CatchUp(OWN_NODE, "b", TopicPattern.parse("*"),
                List.of(recovered(1, 1, 100_000), recovered(2, 2, 250_000)));
        assertThat(fromJournal.sinceMillis()).isEqualTo(250_000 - CatchUp.CLOCK_MARGIN_MILLIS);
        assertThat(new CatchUp(OWN_NODE, "b", TopicPattern.parse("*"), List.of()).sinceMillis()).isZero();
    }

    @Test
    void itTakesWhatFallsBetweenItsJournalAndWhatItHeardLiveOnceInOrder() throws Exception {
        CatchUp catchUp = new CatchUp(OWN_NODE, "b", TopicPattern.parse("orders"),
                List.of(recovered(1, 4, 100_000), recovered(2, 5, 100_001)));
        catchUp.live(STREAM, 9);
        catchUp.live(STREAM, 10);
        List<Long> first = take(catchUp, answer(catchUp, "a", false, message("orders", 3, true),
                message("orders", 5, true), message("orders", 6, true), message("prices", 7, true),
                message("orders", 7, false)));
        assertThat(first).as("after the journal's 5; other topics and NON_PERSISTENT ones not").containsExactly(6L);
        List<Long> rest = take(catchUp, answer(catchUp, "a", true, message("orders", 6, true),
                message("orders", 7, true), message("orders", 8, true), message("orders", 9, true),
                message("orders", 12, true)));
        assertThat(rest).as("each once, up to the first heard live").containsExactly(7L, 8L);
        assertThat(catchUp.finished()).isTrue();
        assertThat(catchUp.answeringStore()).isEqualTo("a");
        assertThat(catchUp.messagesTaken()).isEqualTo(3);
        assertThat(catchUp.messagesOffered()).isEqualTo(10);
        assertThat(take(catchUp, answer(catchUp, "a", true, message("orders", 8, true))))
                .as("nothing after the end").isNull();
    }

    @Test
    void theFirstPeerToAnswerIsTheOneTakenAndNeitherItsOwnNorAnotherRequestsAnswerCounts() throws Exception {
        CatchUp catchUp = new CatchUp(OWN_NODE, "b", TopicPattern.parse("*"), List.of());
        assertThat(take(catchUp, answer(catchUp, "b", true, message("orders", 1, true))))
                .as("an answer under its own name").isNull();
        ByteBuf otherRequest = Unpooled.buffer();
        int start = StoreReplayFlyweight.beginReplay(otherRequest, 1, catchUp.requestId() + 1, OWN_NODE, "a");
        StoreReplayFlyweight.endReplay(otherRequest, start, 0, true, 0);
        assertThat(take(catchUp, otherRequest)).isNull();

        assertThat(take(catchUp, answer(catchUp, "a", false, message("orders", 1, true)))).containsExactly(1L);
        assertThat(take(catchUp, answer(catchUp, "c", true, message("orders", 2, true))))
                .as("a second peer's answer").isNull();
        assertThat(catchUp.finished()).isFalse();
        assertThat(take(catchUp, answer(catchUp, "a", true, message("orders", 2, true)))).containsExactly(2L);
        assertThat(catchUp.finished()).isTrue();
    }

    @Test
    void aHoleInTheAnswerStartsANewAcknowledgementRun() throws Exception {
        CatchUp catchUp = new CatchUp(OWN_NODE, "b", TopicPattern.parse("*"), List.of());
        ByteBuf a = answer(catchUp, "a", true, message("orders", 1, true), message("orders", 2, true),
                message("orders", 5, true), message("orders", 6, true));
        List<PendingWrite> writes = catchUp.answer(a, 0, a.readableBytes(), 1);
        assertThat(writes).extracting(PendingWrite::runStart).containsExactly(1L, 1L, 5L, 5L);
    }

    @Test
    void aRecordWithAnEntryThatDoesNotFrameIsRefusedWholeAndItsMessagesAreTakenFromTheNextRecord()
            throws Exception {
        CatchUp catchUp = new CatchUp(OWN_NODE, "b", TopicPattern.parse("*"), List.of());
        byte[] third = message("orders", 3, true);
        ByteBuf broken = answer(catchUp, "a", false, message("orders", 1, true), message("orders", 2, true), third);
        broken.setInt(broken.writerIndex() - third.length - 4, 1_000_000); // the third entry's length
        assertThatThrownBy(() -> take(catchUp, broken)).isInstanceOf(MalformedWireException.class);
        assertThat(catchUp.messagesTaken()).isZero();
        assertThat(take(catchUp, answer(catchUp, "a", true, message("orders", 1, true), message("orders", 2, true),
                third))).containsExactly(1L, 2L, 3L);
    }

    @Test
    void withoutAnAnswerTheWaitEndsAfterItsTimeAndFinishes() throws Exception {
        CatchUp catchUp = new CatchUp(OWN_NODE, "b", TopicPattern.parse("*"), List.of());
        long start = System.nanoTime();
        assertThat(catchUp.await(50)).isFalse();
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(50_000_000L);
        assertThat(catchUp.finished()).isTrue();
        assertThat(catchUp.answeringStore()).isNull();
    }
}
