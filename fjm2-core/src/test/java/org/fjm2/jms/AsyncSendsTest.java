package org.fjm2.jms;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.jms.CompletionListener;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import org.fjm2.jms.message.Fjm2TextMessage;
import org.fjm2.testkit.Await;
import org.junit.jupiter.api.Test;

/**
 * Asynchronous PERSISTENT sends under storeQuorum are pipelined: every send goes out before the stores acknowledged
 * the first (one at a time, each waiting for its fsync, they went at 215 msgs/s in bench persistent), and the
 * listeners are still told in send order, each once the stores have its message — also when the stores acknowledge
 * a later message first.
 */
class AsyncSendsTest {

    static final int SENDS = 3;
    static final int PRODUCER = 1;
    static final int PRIORITY = 4;

    @Test
    void sendsGoOutBeforeTheQuorumAndListenersAreToldInOrder() throws Exception {
        StoreQuorum quorum = new StoreQuorum(1, StoreQuorumTest.NODE, StoreQuorumTest.EPOCH);
        AsyncSends async = new AsyncSends("async-test");
        AtomicInteger sent = new AtomicInteger();
        List<String> told = new CopyOnWriteArrayList<>();
        try {
            for (int i = 1; i <= SENDS; i++) {
                long sequence = i;
                Fjm2TextMessage message = new Fjm2TextMessage("m" + i);
                async.submit(message, recorder(told), () -> {
                    sent.incrementAndGet();
                    return new SessionSends.QuorumWait(quorum, () -> "m" + sequence, PRODUCER, PRIORITY, sequence,
                            System.nanoTime(), 20_000);
                });
            }
            Await.untilTrue("every send out before any store answered", () -> sent.get() == SENDS,
                    Duration.ofSeconds(10), sent::get);
            assertThat(told).as("listeners told before the stores answered").isEmpty();
            quorum.onAck(9, StoreQuorumTest.ack("a", StoreQuorumTest.NODE, StoreQuorumTest.EPOCH, PRODUCER,
                    PRIORITY, StoreQuorumTest.range(2, 3)));
            // The second and third are on disk, the first not yet: nobody may be told before the first.
            quorum.onAck(9, StoreQuorumTest.ack("a", StoreQuorumTest.NODE, StoreQuorumTest.EPOCH, PRODUCER,
                    PRIORITY, StoreQuorumTest.range(1, 1)));
            Await.untilTrue("every listener told", () -> told.size() == SENDS, Duration.ofSeconds(10), told::toString);
            assertThat(told).containsExactly("ok m1", "ok m2", "ok m3");
        } finally {
            async.close(1_000);
        }
    }

    @Test
    void aSendWithoutQuorumIsToldAtOnceAndAFailedOneInItsTurnEvenByAnError() throws Exception {
        AsyncSends async = new AsyncSends("async-test");
        List<String> told = new CopyOnWriteArrayList<>();
        try {
            async.submit(new Fjm2TextMessage("m1"), recorder(told), () -> null);
            async.submit(new Fjm2TextMessage("m2"), recorder(told), () -> {
                throw new JMSException("refused");
            });
            async.submit(new Fjm2TextMessage("m3"), recorder(told), () -> {
                throw new LinkageError("a class changed under us");    // an Error, not an Exception
            });
            async.submit(new Fjm2TextMessage("m4"), recorder(told), () -> null);
            Await.untilTrue("every listener told", () -> told.size() == 4, Duration.ofSeconds(10), told::toString);
            assertThat(told).containsExactly("ok m1", "failed m2: refused",
                    "failed m3: asynchronous send failed: java.lang.LinkageError: a class changed under us", "ok m4");
        } finally {
            async.close(1_000);
        }
    }

    private static CompletionListener recorder(List<String> told) {
        return new CompletionListener() {
            @Override
            public void onCompletion(Message message) {
                told.add("ok " + text(message));
            }

            @Override
            public void onException(Message message, Exception exception) {
                told.add("failed " + text(message) + ": " + exception.getMessage());
            }
        };
    }

    private static String text(Message message) {
        return ((Fjm2TextMessage) message).getText();
    }
}
