package org.fjm2.jms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.fjm2.jms.InboundHarness.LATE_JOIN_EPOCH;
import static org.fjm2.jms.InboundHarness.batch;

import java.util.concurrent.TimeUnit;

import io.netty.buffer.Unpooled;
import jakarta.jms.Connection;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import org.fjm2.testkit.Await;
import org.junit.jupiter.api.Test;

/**
 * Loss is never only counted: it is logged even when nobody set an ExceptionListener, and since a broken or
 * hostile sender can make it frequent, at most one line a second carries it, with what was left out since the last
 * line. Malformed input in the receive loop likewise: a line a second with the count, never a stack trace each.
 */
class InboundLossLoggingTest {

    @Test
    void lossesAreLoggedAtMostOnceASecondWithWhatWasLeftOut() throws Exception {
        try (InboundHarness harness = new InboundHarness(InboundLimits.DEFAULTS); LogCapture log = new LogCapture()) {
            // 1, 3, 5 ... 99: 49 gaps of 1 message each, within one second of the harness's clock.
            for (int i = 0; i < 50; i++) {
                harness.feed(1, batch(LATE_JOIN_EPOCH).message(1, 1 + 2L * i));
            }
            assertThat(log.lines("lost for good")).hasSize(1);
            harness.advance(1, TimeUnit.SECONDS);
            harness.feed(1, batch(LATE_JOIN_EPOCH).message(1, 200));

            assertThat(log.lines("lost for good")).hasSize(2);
            assertThat(log.lines("lost for good").get(1)).startsWith("100 messages lost for good")
                    .contains("48 more loss report(s) since the last line: 48 message(s)");
            assertThat(harness.losses()).as("every report still reaches the listener").hasSize(50);
            assertThat(harness.counters().messagesLost.sum()).isEqualTo(49 + 100);
        }
    }

    @Test
    void malformedBatchesAreLoggedAtMostOnceASecondWithoutStackTraces() throws Exception {
        try (InboundHarness harness = new InboundHarness(InboundLimits.DEFAULTS); LogCapture log = new LogCapture()) {
            for (int i = 0; i < 20; i++) {
                harness.inbound.onObject(1, Unpooled.wrappedBuffer(new byte[] {1, 2, 3}));
            }
            harness.advance(1, TimeUnit.SECONDS);
            harness.inbound.onObject(1, Unpooled.wrappedBuffer(new byte[] {1, 2, 3}));

            assertThat(log.lines("malformed")).hasSize(2);
            assertThat(log.lines("malformed").get(1)).contains("19 more");
            assertThat(log.anyStackTrace()).isFalse();
            assertThat(harness.counters().malformedBatches.sum()).isEqualTo(21);
        }
    }

    @Test
    void consumerOverflowIsLoggedWithoutAnExceptionListener() throws Exception {
        String url = InMem.newUrl("consumerQueueMessages=1&consumerBackPressure=false");
        try (LogCapture log = new LogCapture(); Connection pub = InMem.connect(url); Connection sub = InMem.connect(url)) {
            Session ss = sub.createSession();
            Topic topic = ss.createTopic("overflow");
            ss.createConsumer(topic);                       // never reads
            Session ps = pub.createSession();
            MessageProducer producer = ps.createProducer(topic);
            for (int i = 0; i < 5; i++) {
                producer.send(ps.createTextMessage("m" + i));
            }
            Fjm2Connection subscriber = (Fjm2Connection) sub;
            assertThat(Await.until(() -> subscriber.counters().consumerOverflowDrops.sum() >= 1, 10,
                    TimeUnit.SECONDS)).isTrue();
            assertThat(Await.until(() -> !log.lines("dropped").isEmpty(), 10, TimeUnit.SECONDS))
                    .as("a WARN line names the drops although no ExceptionListener is set").isTrue();
            assertThat(log.lines("dropped").get(0)).contains("consumerOverflow");
        }
    }
}
