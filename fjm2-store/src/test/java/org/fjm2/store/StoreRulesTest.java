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
}
