package org.fjm2.jms;

import jakarta.jms.Message;
import org.fjm2.jms.message.Fjm2TextMessage;
import org.fjm2.testkit.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The batcher's timer thread (linger expiries, the drained signal; it also runs delivery delays and overflow
 * reports) never waits: not for room in a full transport, not for a batch lock held by a producer that waits for
 * room. What it cannot flush at once goes to the flush thread, and is sent once there is room. Each test checks the
 * timer with a probe task queued behind the flush: it runs only if the timer did not get stuck.
 */
class OutboundTimerNeverWaitsTest {

    /** Far longer than any test waits: a sender stuck in the transport stays stuck. */
    private static final String NO_TIMEOUT = "sendTimeoutMillis=600000";
    private static final Duration BOUND = Duration.ofSeconds(10);

    private final ScriptedTransport transport = new ScriptedTransport();
    private final ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1);
    private final ExecutorService flushThread = Executors.newSingleThreadExecutor();
    private final ExecutorService producerThread = Executors.newSingleThreadExecutor();
    private final ProducerState producer = new ProducerState(1);
    private final Fjm2Topic topic = new Fjm2Topic("t");
    private Outbound outbound;

    @AfterEach
    void close() {
        transport.full(false);
        if (outbound != null) {
            outbound.close();
        }
        timer.shutdownNow();
        flushThread.shutdownNow();
        producerThread.shutdownNow();
    }

    @Test
    void aDrainedSignalWhileTheTransportIsFullLeavesTheFlushToTheFlushThread() throws Exception {
        outbound = newOutbound("inmem://timer-full?batchLingerMicros=10000000&" + NO_TIMEOUT);
        transport.pending = 1;           // busy: the message waits in an open batch
        send();
        assertThat(transport.sent.get()).isZero();
        transport.full(true);            // ... and now there is no room at all
        transport.pending = 0;
        outbound.transmitIdle();

        assertTimerNotStuck(timer.submit(() -> { }));
        Await.untilTrue("the flush thread waits in send()", () -> transport.waitingSenders.get() == 1, BOUND,
                transport.waitingSenders::get);
        transport.full(false);
        Await.untilTrue("the batch sent once there is room", () -> transport.sent.get() == 1, BOUND,
                transport.sent::get);
    }

    @Test
    void aLingerExpiryWhileAProducerWaitsWithTheBatchLockDoesNotWaitForTheLock() throws Exception {
        outbound = newOutbound("inmem://timer-lock?batchLingerMicros=20000&" + NO_TIMEOUT);
        transport.pending = 1;
        send();                          // open batch, linger due in 20 ms
        transport.full(true);
        transport.pending = 0;
        Future<?> waitingProducer = producerThread.submit(() -> {
            send();                      // appends, then flushes: waits in send() holding the batch lock
            return null;
        });
        Await.untilTrue("the producer waits in send() with the lock", () -> transport.waitingSenders.get() == 1,
                BOUND, transport.waitingSenders::get);

        // Queued after the linger expiry (due at 20 ms): it runs only if the expiry did not wait for the lock.
        assertTimerNotStuck(timer.schedule(() -> { }, 200, TimeUnit.MILLISECONDS));
        transport.full(false);
        waitingProducer.get(BOUND.toSeconds(), TimeUnit.SECONDS);
        Await.untilTrue("both messages sent", () -> transport.recordsSent.get() == 2, BOUND,
                transport.recordsSent::get);
        assertThat(transport.waitingSenders.get()).isZero();
    }

    private void assertTimerNotStuck(Future<?> probe) throws Exception {
        Await.untilTrue("the timer thread ran a task queued after the flush (it did not wait)", probe::isDone,
                BOUND, () -> "timer queue " + timer.getQueue().size() + ", senders waiting "
                        + transport.waitingSenders.get());
    }

    private Void send() throws Exception {
        Fjm2TextMessage message = new Fjm2TextMessage("hello");
        message.setJMSPriority(Message.DEFAULT_PRIORITY);
        outbound.send(message, topic, null, producer, System.currentTimeMillis(), 0, false, false);
        return null;
    }

    private Outbound newOutbound(String url) throws Exception {
        return new Outbound(transport, 1L, ConnectionSettings.parse(url), timer, flushThread,
                new ConnectionCounters(), new LocalDelivery(new SubscriptionTable(), () -> null, 1L),
                (priority, messages, reason) -> {
                    throw new AssertionError("dropped: " + reason);
                });
    }
}
