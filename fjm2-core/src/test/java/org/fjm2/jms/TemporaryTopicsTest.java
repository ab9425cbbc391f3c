package org.fjm2.jms;

import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link TemporaryTopics}: names, resolving names from received messages, ownership and deletion. */
class TemporaryTopicsTest {

    @Test
    void namesCarryNodeAndEpochAndDiffer() {
        TemporaryTopics topics = new TemporaryTopics("42", 0xabcL, new SubscriptionTable());
        Fjm2TemporaryTopic a = topics.create(null);
        Fjm2TemporaryTopic b = topics.create(null);
        assertThat(a.name()).startsWith(Fjm2TemporaryTopic.PREFIX + "42.abc.");
        assertThat(a.name()).isNotEqualTo(b.name());
    }

    @Test
    void aNameResolvesToTheOwnTopicOrAStandInForAnotherConnections() {
        TemporaryTopics topics = new TemporaryTopics("1", 1L, new SubscriptionTable());
        Fjm2TemporaryTopic own = topics.create(null);
        assertThat(topics.resolve(own.name())).isSameAs(own);
        Fjm2Topic other = topics.resolve(Fjm2TemporaryTopic.PREFIX + "2.2.2.1");
        assertThat(other).isInstanceOf(Fjm2TemporaryTopic.class);
        assertThat(((Fjm2TemporaryTopic) other).owner()).as("owned elsewhere").isNull();

        topics.deleteAll();
        assertThat(own.isDeleted()).isTrue();
        assertThat(topics.resolve(own.name())).isNotSameAs(own);
    }

    @Test
    void onlyTheCreatorConsumesAndATopicWithConsumersIsNotDeleted() throws Exception {
        String url = InMem.newUrl();
        try (Connection creator = InMem.connect(url); Connection other = InMem.connect(url)) {
            Session s = creator.createSession();
            Fjm2TemporaryTopic topic = (Fjm2TemporaryTopic) s.createTemporaryTopic();
            assertThatCode(() -> TemporaryTopics.checkConsumable(topic, (Fjm2Connection) creator))
                    .doesNotThrowAnyException();
            assertThatThrownBy(() -> TemporaryTopics.checkConsumable(topic, (Fjm2Connection) other))
                    .isInstanceOf(InvalidDestinationException.class).hasMessageContaining("another connection");

            MessageConsumer consumer = s.createConsumer(topic);
            assertThatThrownBy(topic::delete).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("still has consumers");
            consumer.close();
            topic.delete();
            assertThat(topic.isDeleted()).isTrue();
            assertThatThrownBy(() -> TemporaryTopics.checkConsumable(topic, (Fjm2Connection) creator))
                    .isInstanceOf(InvalidDestinationException.class).hasMessageContaining("deleted");
        }
    }
}
