package org.fjm2.jms;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import org.fjm2.testkit.Await;
import org.junit.jupiter.api.Test;

/**
 * Reports wait for a slow ExceptionListener in a bounded backlog: a sender can cause loss reports faster than any
 * listener takes them, and each waiting report is memory. Beyond the bound they are dropped (each was counted and
 * logged where it arose), which is logged too.
 */
class ExceptionListenerBacklogTest {

    @Test
    void reportsBeyondTheBacklogAreDroppedAndThatIsLogged() throws Exception {
        int extra = 5;
        try (LogCapture log = new LogCapture(); Connection c = InMem.connect(InMem.newUrl())) {
            Fjm2Connection connection = (Fjm2Connection) c;
            CountDownLatch release = new CountDownLatch(1);
            AtomicInteger heard = new AtomicInteger();
            c.setExceptionListener(e -> {
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                }
                heard.incrementAndGet();
            });
            // The first report occupies the events thread (blocked) and counts, the backlog fills behind it.
            int sent = ExceptionReports.MAX_PENDING_REPORTS + extra;
            for (int i = 0; i < sent; i++) {
                connection.reportAsync(new JMSException("problem " + i));
            }
            assertThat(log.lines("behind")).hasSize(1);
            release.countDown();
            assertThat(Await.until(() -> !log.lines("missed").isEmpty(), 30, TimeUnit.SECONDS)).isTrue();
            assertThat(log.lines("missed").get(0)).contains(extra + " report");
            assertThat(Await.until(() -> heard.get() == sent - extra, 30, TimeUnit.SECONDS))
                    .as("heard %d", heard.get()).isTrue();
        }
    }
}
