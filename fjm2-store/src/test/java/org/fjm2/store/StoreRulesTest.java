package org.fjm2.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import java.time.Duration;

/** The small rules of the store: topic patterns, hole-free runs of a stream, retention. */
class StoreRulesTest {

    @Test
    void topicPatternsMatchWholeNamesWithStarsForAnything() {
        TopicPattern p = TopicPattern.parse("orders.*, prices");
        assertThat(p.matches("orders.eu")).isTrue();
        assertThat(p.matches("orders.eu.fr")).isTrue();
        assertThat(p.matches("prices")).isTrue();
        assertThat(p.matches("prices.eu")).isFalse();
        assertThat(p.matches("xorders.eu")).isFalse();
        assertThat(TopicPattern.parse("*").matches("anything.at.all")).isTrue();
        assertThat(TopicPattern.parse("a*c").matches("a.b.c")).isTrue();
        assertThat(TopicPattern.parse("a(b)").matches("a(b)")).isTrue();
        assertThatThrownBy(() -> TopicPattern.parse("a,,b")).hasMessageContaining("empty topic pattern");
    }

    @Test
    void aRunRestartsAfterAHoleOrAMessageNotKept() {
        StreamTracker t = new StreamTracker();
        StreamKey s = new StreamKey(1, 2, 3, 4);
        assertThat(t.accept(s, 5)).isEqualTo(5);     // joined at 5
        assertThat(t.accept(s, 6)).isEqualTo(5);
        assertThat(t.accept(s, 6)).isEqualTo(StreamTracker.DUPLICATE);
        assertThat(t.accept(s, 9)).isEqualTo(9);     // 7 and 8 missed
        assertThat(t.accept(s, 10)).isEqualTo(9);
        t.notKept(s, 10);
        assertThat(t.accept(s, 11)).isEqualTo(11);
        assertThat(t.accept(new StreamKey(1, 2, 3, 5), 1)).isEqualTo(1);
    }

    @Test
    void retentionDropsTheOldestBeyondBytesOrAge() {
        MessageIndex index = new MessageIndex();
        index.add(1, 1_000, 100);
        index.add(2, 2_000, 100);
        index.add(3, 3_000, 100);
        Retention bySize = new Retention(250, Duration.ZERO);
        assertThat(bySize.dropOldest(index, 10_000)).isTrue();
        index.removeOldest();
        assertThat(bySize.dropOldest(index, 10_000)).isFalse();
        Retention byAge = new Retention(0, Duration.ofMillis(1_500));
        assertThat(byAge.dropOldest(index, 3_400)).isFalse();   // the oldest (at 2 s) is 1.4 s old
        assertThat(byAge.dropOldest(index, 3_501)).isTrue();
        assertThat(new Retention(0, Duration.ZERO).dropOldest(index, Long.MAX_VALUE)).isFalse();
    }

    static StoredMessage message(long id, String topic, int bytes) {
        io.netty.buffer.ByteBuf r = JournalTest.record(topic, 1, id);
        byte[] record = new byte[Math.max(bytes, r.readableBytes())];
        r.getBytes(0, record, 0, r.readableBytes());
        new org.fjm2.jms.wire.MessageHeaderFlyweight().wrap(io.netty.buffer.Unpooled.wrappedBuffer(record), 0)
                .recordLength(record.length);
        return new StoredMessage(id, 9, 8, 0, record);
    }

    @Test
    void aLateJoinIsAnsweredWithTheNewestBeforeTheJoinAndEverythingAfter() {
        TopicTails tails = new TopicTails();
        for (int id = 1; id <= 20; id++) {
            tails.add(message(id, id % 2 == 0 ? "even" : "odd", 100));
        }
        assertThat(tails.answer("even", 3, 14, 0)).extracting(StoredMessage::id)
                .containsExactly(10L, 12L, 14L, 16L, 18L, 20L);
        assertThat(tails.answer("even", 3, 20, 0)).extracting(StoredMessage::id).containsExactly(16L, 18L, 20L);
        assertThat(tails.answer("even", 30, 20, 13)).extracting(StoredMessage::id)
                .containsExactly(14L, 16L, 18L, 20L);   // retention dropped everything below 13
        assertThat(tails.answer("none", 3, 20, 0)).isEmpty();
    }

    @Test
    void tailsAreBoundedPerTopicAndInBytes() {
        TopicTails tails = new TopicTails();
        for (int id = 1; id <= TopicTails.MESSAGES_PER_TOPIC + 5; id++) {
            tails.add(message(id, "t", 100));
        }
        assertThat(tails.answer("t", Integer.MAX_VALUE, Long.MAX_VALUE, 0)).hasSize(TopicTails.MESSAGES_PER_TOPIC)
                .first().extracting(StoredMessage::id).isEqualTo(6L);
        int big = 1 << 20;
        long count = TopicTails.MAX_BYTES / big + 3;
        for (long id = 10_000; id < 10_000 + count; id++) {
            tails.add(message(id, "big", big));
        }
        assertThat(tails.answer("big", Integer.MAX_VALUE, Long.MAX_VALUE, 0).size())
                .isLessThanOrEqualTo((int) (TopicTails.MAX_BYTES / big));
        assertThat(tails.answer("t", 10, Long.MAX_VALUE, 0)).as("the oldest topic's messages went first").isEmpty();
    }
}
