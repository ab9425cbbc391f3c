package org.fjm2.jms;

import jakarta.jms.Message;
import org.fjm2.jms.message.Fjm2TextMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The transport's "drained" signal reaches the batcher after nearly every lone message at low rates: it must cost a
 * timer-thread wake-up only when a batch is actually open (each needless wake-up is a context switch per message,
 * on the latency path of a 2-core machine), and it must still send an open batch at once.
 */
class OutboundIdleFlushTest {

    private final ScriptedTransport transport = new ScriptedTransport();
    private final CountingTimer timer = new CountingTimer();
    private final ExecutorService flushThread = Executors.newSingleThreadExecutor();
    private Outbound outbound;

    @AfterEach
    void close() {
        if (outbound != null) {
            outbound.close();
        }
        timer.shutdownNow();
        flushThread.shutdownNow();
    }

    @Test
    void drainedSignalWakesTheTimerOnlyForAnOpenBatch() throws Exception {
        outbound = newOutbound("inmem://idle-flush?batchLingerMicros=10000000");
        ProducerState producer = new ProducerState(1);
        Fjm2Topic topic = new Fjm2Topic("t");

        send(producer, topic);      // transport idle: the lone message leaves at once
        assertThat(transport.sent.get()).isEqualTo(1);
        outbound.transmitIdle();
        assertThat(timer.executed.get()).as("timer tasks for a drain with no batch open").isZero();

        transport.pending = 1;      // transport busy: the next message waits in a batch
        send(producer, topic);
        assertThat(transport.sent.get()).isEqualTo(1);
        transport.pending = 0;
        CountDownLatch flushed = transport.expectSends(1);
        outbound.transmitIdle();
        assertThat(flushed.await(5, TimeUnit.SECONDS)).as("open batch sent on the drained signal").isTrue();
        assertThat(timer.executed.get()).isEqualTo(1);
    }

    private void send(ProducerState producer, Fjm2Topic topic) throws Exception {
        Fjm2TextMessage message = new Fjm2TextMessage("hello");
        message.setJMSPriority(Message.DEFAULT_PRIORITY);
        outbound.send(message, topic, null, producer, System.currentTimeMillis(), 0, false, false);
    }

    private Outbound newOutbound(String url) throws Exception {
        return new Outbound(transport, 1L, ConnectionSettings.parse(url), timer, flushThread,
                new ConnectionCounters(), new LocalDelivery(new SubscriptionTable(), () -> null, 1L),
                (priority, messages, reason) -> {
                    throw new AssertionError("dropped: " + reason);
                });
    }

    /** Counts tasks handed to {@link #execute}, the path of the drained signal. */
    private static final class CountingTimer extends ScheduledThreadPoolExecutor {
        final AtomicInteger executed = new AtomicInteger();

        CountingTimer() {
            super(1);
        }

        @Override
        public void execute(Runnable command) {
            executed.incrementAndGet();
            super.execute(command);
        }
    }
}
