package org.fjm2.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

/**
 * The store's side of durable subscriptions without a network: which messages are pending for a subscription, the
 * memory bound and retention (pending messages dropped are counted for the subscriber's return), and the
 * subscription's journal record across a reopen.
 */
class DurableBacklogTest {

    @TempDir
    Path dir;

    private static final int MESSAGE_BYTES = 100;

    private static StoredMessage message(long id, String topic) {
        return StoreRulesTest.message(id, topic, MESSAGE_BYTES);
    }

    @Test
    void pendingMessagesAreBoundedAndWhatIsDroppedUnconsumedIsCounted() {
        Subscription s = new Subscription(new SubscriptionKey("c", "d"), 1000, "t", null, false, 0);
        DurableSubscriptions subscriptions = new DurableSubscriptions(List.of(s));
        DurableBacklog backlog = new DurableBacklog(subscriptions, 10L * MESSAGE_BYTES);
        for (long id = 1; id <= 5; id++) {
            backlog.add(message(id, "t"));
        }
        backlog.add(message(6, "other"));
        assertThat(backlog.size()).as("only topics with a subscription that has them pending").isEqualTo(5);
        assertThat(backlog.pending(s)).extracting(StoredMessage::sequence).containsExactly(1L, 2L, 3L, 4L, 5L);

        s.acknowledged(PositionKey.of(message(3, "t")), 3);
        assertThat(backlog.pending(s)).extracting(StoredMessage::sequence).containsExactly(4L, 5L);
        backlog.dropConsumed();
        assertThat(backlog.size()).as("acknowledged by every subscription: not needed").isEqualTo(2);
        assertThat(s.takeLost()).isZero();

        for (long id = 7; id <= 21; id++) {
            backlog.add(message(id, "t"));
        }
        assertThat(backlog.bytes()).isLessThanOrEqualTo(10L * MESSAGE_BYTES);
        // 17 pending, room for 10: the 7 oldest (4, 5, 7..11) went, unconsumed
        assertThat(s.takeLost()).isEqualTo(7);
        assertThat(s.takeLost()).as("told once").isZero();
        assertThat(backlog.pending(s)).extracting(StoredMessage::sequence).first().isEqualTo(12L);

        backlog.droppedFromJournal(13); // retention
        assertThat(s.takeLost()).isEqualTo(2);
        assertThat(backlog.pending(s)).extracting(StoredMessage::sequence).first().isEqualTo(14L);
    }

    @Test
    void aSubscriptionCreatedLaterHasOnlyLaterMessagesPending() {
        Subscription early = new Subscription(new SubscriptionKey("c", "early"), 1000, "t", null, false, 0);
        Subscription late = new Subscription(new SubscriptionKey("c", "late"), 1001, "t", "x > 1", true, 3);
        DurableSubscriptions subscriptions = new DurableSubscriptions(List.of(early, late));
        DurableBacklog backlog = new DurableBacklog(subscriptions);
        for (long id = 1; id <= 5; id++) {
            backlog.add(message(id, "t"));
        }
        assertThat(backlog.pending(late)).extracting(StoredMessage::id).containsExactly(4L, 5L);
        assertThat(backlog.pending(early)).hasSize(5);
        subscriptions.remove(early);
        backlog.dropConsumed();
        assertThat(backlog.size()).as("without the early subscription 1..3 are nobody's").isEqualTo(2);
    }

    @Test
    void theSubscriptionAndItsLastPositionSurviveAReopenAndUnsubscribeRemovesIt() throws Exception {
        Subscription s = new Subscription(new SubscriptionKey("client", "name"), 7, "orders", "a = 1", true, 6);
        s.shared(true);
        try (StoreJournal journal = StoreJournal.open(dir)) {
            journal.addSubscription(s);
            s.acknowledged(new PositionKey(11L, 2, 4), 5);
            journal.updateSubscription(s);
            s.acknowledged(new PositionKey(11L, 2, 4), 9);
            s.acknowledged(new PositionKey(12L, 3, 9), 1);
            journal.updateSubscription(s);
        }
        try (StoreJournal journal = StoreJournal.open(dir)) {
            assertThat(journal.subscriptions()).hasSize(1);
            Subscription back = journal.subscriptions().get(0);
            assertThat(back.key()).isEqualTo(new SubscriptionKey("client", "name"));
            assertThat(back.journalId()).isEqualTo(7);
            assertThat(back.topic()).isEqualTo("orders");
            assertThat(back.selector()).isEqualTo("a = 1");
            assertThat(back.noLocal()).isTrue();
            assertThat(back.shared()).isTrue();
            assertThat(back.createdAfterId()).isEqualTo(6);
            assertThat(back.positions()).containsEntry(new PositionKey(11L, 2, 4), 9L)
                    .containsEntry(new PositionKey(12L, 3, 9), 1L).hasSize(2);
            journal.deleteSubscription(back);
        }
        try (StoreJournal journal = StoreJournal.open(dir)) {
            assertThat(journal.subscriptions()).isEmpty();
            assertThat(journal.recovered()).isEmpty();
        }
    }

    @Test
    void aTombstoneAndTheIncarnationSurviveAReopenAndAFormatOneRecordStillReads() throws Exception {
        Subscription s = new Subscription(new SubscriptionKey("client", "gone"), 7, "orders", null, false, 6, -42L,
                1_700_000_000_000L);
        try (StoreJournal journal = StoreJournal.open(dir)) {
            journal.addSubscription(s);
            s.remove(1_700_000_100_000L);
            journal.updateSubscription(s);
        }
        try (StoreJournal journal = StoreJournal.open(dir)) {
            Subscription back = journal.subscriptions().get(0);
            assertThat(back.removed()).isTrue();
            assertThat(back.removedMillis()).isEqualTo(1_700_000_100_000L);
            assertThat(back.incarnation()).isEqualTo(-42L);
            assertThat(back.createdMillis()).isEqualTo(1_700_000_000_000L);
            DurableSubscriptions recovered = new DurableSubscriptions(journal.subscriptions());
            assertThat(recovered.get(back.key())).as("a tombstone is not a live subscription").isNull();
            assertThat(recovered.tombstone(back.key())).isSameAs(back);
            assertThat(recovered.expireTombstones(1_700_000_100_000L)).as("not yet").isEmpty();
            assertThat(recovered.expireTombstones(1_700_000_100_001L)).containsExactly(back);
        }

        // format 1: no incarnation, creation or removal time (written before stores named subscriptions)
        io.netty.buffer.ByteBuf v1 = io.netty.buffer.Unpooled.buffer();
        v1.writeByte(SubscriptionRecordCodec.FORMAT_WITHOUT_INCARNATION).writeLong(6).writeByte(1);
        for (String field : new String[] {"client", "old", "orders", ""}) {
            byte[] bytes = field.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            v1.writeShort(bytes.length).writeBytes(bytes);
        }
        v1.writeInt(1).writeLong(11L).writeInt(2).writeByte(4).writeLong(9);
        byte[] bytes = new byte[v1.readableBytes()];
        v1.readBytes(bytes);
        Subscription old = SubscriptionRecordCodec.decode(3, bytes);
        assertThat(old.incarnation()).isZero();
        assertThat(old.removed()).isFalse();
        assertThat(old.noLocal()).isTrue();
        assertThat(old.selector()).isNull();
        assertThat(old.positions()).containsEntry(new PositionKey(11L, 2, 4), 9L);
    }

    @Test
    void tombstonesAreCappedTheOldestGoingFirst() {
        DurableSubscriptions subscriptions = new DurableSubscriptions(List.of());
        Subscription first = null;
        for (int i = 0; i <= DurableSubscriptions.MAX_TOMBSTONES; i++) {
            Subscription t = new Subscription(new SubscriptionKey("c", "s" + i), i, "t", null, false, 0, i + 1, i);
            t.remove(1000 + i);
            Subscription evicted = subscriptions.bury(t);
            if (i == 0) {
                first = t;
            }
            if (i < DurableSubscriptions.MAX_TOMBSTONES) {
                assertThat(evicted).isNull();
            } else {
                assertThat(evicted).as("the oldest").isSameAs(first);
            }
        }
        assertThat(subscriptions.tombstones()).hasSize(DurableSubscriptions.MAX_TOMBSTONES);
    }
}
