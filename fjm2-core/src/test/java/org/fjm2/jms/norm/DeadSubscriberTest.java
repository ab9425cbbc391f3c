package org.fjm2.jms.norm;

import org.fjm2.testkit.ChildJvm;
import static org.assertj.core.api.Assertions.assertThat;

import jakarta.jms.Connection;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.fjm2.jms.Fjm2ConnectionFactory;
import org.junit.jupiter.api.Test;

/**
 * Issue 19: a dead subscriber must not stall the living. A publisher paced at 10,000 messages/s of 200 bytes with the
 * URL's defaults (receiver-paced flow control), two subscriber processes; one is killed with -9 in mid-stream. Once
 * its window is full and it has said nothing for the window silence (150 ms, or 8 of its usual gaps between reports)
 * the publisher stops pacing for it, and the cache may hold twice its bounds once it left 6 round FLUSHes unanswered:
 * the living one gets every message, in most runs with no gap at the kill beyond the 200 ms goal (before flow control
 * the publisher stalled until the receiver timeout, 4.5-7 s). The bounds leave room for a loaded 2-core machine, and
 * fail on that stall; the gaps are printed.
 */
class DeadSubscriberTest {

    static final int RATE = 10_000;
    static final int MESSAGES = 60_000;
    static final int KILL_AT = 20_000;
    /**
     * Any gap, a JVM's start included, and from the kill on: the 200 ms goal is met in most runs (20-33 ms), but when
     * round FLUSHes are spaced by a GRTT the starved host inflated, the cache fills behind the dead one before it has
     * left 6 of them unanswered and may overflow (400-500 ms here in 2 of 6 runs, 1,472 ms in one CI run). Counting a
     * receiver flow control let go of as silent at once closed that gap but lost data in the three-LAN mesh, so it
     * was taken back. The old stall, until the receiver timeout, was 4.5-7 s.
     */
    static final long MAX_GAP_MS = 3_000;
    static final long MAX_GAP_AFTER_KILL_MS = MAX_GAP_MS;

    @Test
    void killingOneSubscriberDoesNotStallTheOther() throws Exception {
        String base = NormUrls.fresh();
        String url = NormUrls.of(base, "");
        try (ChildJvm living = new ChildJvm("256m", SubscriberProcess.class, url, "dead-subscriber",
                String.valueOf(MESSAGES), String.valueOf(KILL_AT));
             ChildJvm dying = new ChildJvm("256m", SubscriberProcess.class, url, "dead-subscriber",
                     String.valueOf(MESSAGES))) {
            assertThat(living.awaitLine("READY", 30)).startsWith("READY");
            assertThat(dying.awaitLine("READY", 30)).startsWith("READY");
            long killedAt = 0;
            long sentAfterKill = 0;
            try (Connection c = new Fjm2ConnectionFactory(url).createConnection()) {
                Session s = c.createSession();
                MessageProducer p = s.createProducer(s.createTopic("dead-subscriber"));
                String body = "x".repeat(200);
                long start = System.nanoTime();
                long longestSend = 0;
                int longestSendAt = -1;
                for (int i = 0; i < MESSAGES; i++) {
                    long due = start + i * 1_000_000_000L / RATE;
                    while (System.nanoTime() < due) {
                        Thread.onSpinWait();
                    }
                    if (i == KILL_AT) {
                        dying.close();      // kill -9
                        killedAt = System.nanoTime();
                    }
                    TextMessage m = s.createTextMessage(body);
                    m.setIntProperty("seq", i);
                    long before = System.nanoTime();
                    p.send(m);
                    long took = System.nanoTime() - before;
                    if (took > longestSend) {
                        longestSend = took;
                        longestSendAt = i;
                    }
                }
                double afterKill = (System.nanoTime() - killedAt) / 1e9;
                sentAfterKill = MESSAGES - KILL_AT;
                String result = living.awaitLine("DONE", 60);
                System.out.printf("subscriber killed -9 at message %,d: the publisher sent the remaining %,d in "
                        + "%.2f s (%.0f msg/s, paced at %,d; its longest send: %d ms, message %,d); the living "
                        + "subscriber: %s%n", KILL_AT, sentAfterKill, afterKill, sentAfterKill / afterKill, RATE,
                        longestSend / 1_000_000, longestSendAt, result);
                assertThat(result)
                        .as("the living subscriber: %s; the end of its output:%n%s", result, living.outputTail(60))
                        .startsWith("DONE " + MESSAGES + " lost=0 ");
                long maxGapMs = Long.parseLong(result.replaceAll(".*maxGapMs=(\\d+).*", "$1"));
                assertThat(maxGapMs).as("longest gap between two messages at the living subscriber, ms")
                        .isLessThan(MAX_GAP_MS);
                long afterKillMs = Long.parseLong(result.replaceAll(".*maxGapFromMs=(\\d+).*", "$1"));
                assertThat(afterKillMs).as("longest gap at the living subscriber from the kill on, ms")
                        .isLessThan(MAX_GAP_AFTER_KILL_MS);
            }
        }
    }
}
