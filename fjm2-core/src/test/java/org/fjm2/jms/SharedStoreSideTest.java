package org.fjm2.jms;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.jms.Connection;
import jakarta.jms.Session;
import org.fjm2.jms.message.Fjm2TextMessage;
import org.junit.jupiter.api.Test;

/**
 * The position a shared durable subscription's connection tells the stores ({@link SharedStoreSide}): it stops below
 * the oldest message a member has not acknowledged, moves as members acknowledge, and stays where it was when the
 * last member here leaves — a heartbeat after that must not take the messages that left with it for acknowledged.
 */
class SharedStoreSideTest {

    private static final long EPOCH = 77;

    private static Fjm2TextMessage message(long sequence, long sentMillis) {
        Fjm2TextMessage m = new Fjm2TextMessage("m" + sequence);
        m.origin(EPOCH, 1, 4, sequence);
        m.originSentMillis(sentMillis);
        return m;
    }

    @Test
    void thePositionStopsBelowTheOldestOpenMessageAndStaysWhenTheLastMemberLeaves() throws Exception {
        try (Connection connection = InMem.connect(InMem.newUrl())) {
            Session session = connection.createSession();
            Fjm2MessageConsumer consumer = (Fjm2MessageConsumer) session.createConsumer(session.createTopic("jobs"));
            SharedGroup group = new SharedGroup(new SharedGroup.Key("", "workers", "jobs", "", true),
                    new Fjm2Topic("jobs"), null, 8, 1000);
            long now = System.currentTimeMillis();
            long joined = now - 10_000;     // active long ago: it decides at once
            SharedGroup.Member member = group.joinLocal(1, consumer, joined, System.nanoTime());
            DurablePosition.Stream stream = new DurablePosition.Stream(EPOCH, 1, 4);
            Fjm2TextMessage[] sent = new Fjm2TextMessage[6];
            for (int i = 1; i <= 5; i++) {
                sent[i] = message(i, now - 1000);
                assertThat(group.route(sent[i])).as("message %d is the only member's", i).isSameAs(consumer);
            }
            group.tick(now, System.nanoTime());
            assertThat(group.storePosition().through(stream)).as("nothing acknowledged").isZero();

            member.position.acknowledged(sent[3]);
            group.tick(now, System.nanoTime());
            assertThat(group.storePosition().through(stream)).as("1-3 acknowledged, 4 and 5 open").isEqualTo(3);

            assertThat(group.leaveLocal(member, now)).as("the last member here").isTrue();
            group.tick(now, System.nanoTime());
            assertThat(group.storePosition().through(stream))
                    .as("4 and 5 left open with the last member: not acknowledged for that").isEqualTo(3);
        }
    }
}
