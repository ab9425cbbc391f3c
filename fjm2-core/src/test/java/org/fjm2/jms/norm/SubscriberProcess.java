package org.fjm2.jms.norm;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import org.fjm2.jms.Fjm2ConnectionFactory;

/**
 * A subscriber in its own JVM (the two-process and hostile-LAN tests): {@code URL TOPIC COUNT [FROM]}. Prints READY
 * once subscribed, samples its heap while it receives messages numbered 0..COUNT-1 by their "seq" property, and ends
 * with {@code DONE n lost=L heapAfterGcMiB=H peakUsedMiB=P maxGapMs=G maxGapBefore=S maxGapFromMs=F gaps=[...]} (L:
 * loss reports to its ExceptionListener; G: the longest time between two consecutive messages, S: the seq that ended
 * it; F: the longest that ended at seq FROM or later; gaps: the first ten of at least 100 ms as seq:ms) or
 * {@code FAIL reason}.
 */
public final class SubscriberProcess {

    /** Gaps at least this long are listed by where they happened. */
    private static final long LONG_GAP_NANOS = 100_000_000L;

    public static void main(String[] args) throws Exception {
        String url = args[0];
        String topic = args[1];
        int count = Integer.parseInt(args[2]);
        int from = args.length > 3 ? Integer.parseInt(args[3]) : 0;
        AtomicLong peakUsed = new AtomicLong();
        AtomicLong lostReports = new AtomicLong();
        Thread sampler = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                peakUsed.accumulateAndGet(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(),
                        Math::max);
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "heap-sampler");
        sampler.setDaemon(true);
        sampler.start();
        try (Connection c = new Fjm2ConnectionFactory(url).createConnection()) {
            c.setExceptionListener(e -> lostReports.incrementAndGet());
            Session s = c.createSession();
            MessageConsumer consumer = s.createConsumer(s.createTopic(topic));
            c.start();
            System.out.println("READY");
            System.out.flush();
            long last = 0;
            long maxGap = 0;
            int maxGapBefore = -1;
            long maxGapFrom = 0;
            StringBuilder longGaps = new StringBuilder();
            int longGapCount = 0;
            for (int i = 0; i < count; i++) {
                Message m = consumer.receive(60_000);
                long now = System.nanoTime();
                if (i > 0 && now - last > maxGap) {
                    maxGap = now - last;
                    maxGapBefore = i;
                }
                if (i > 0 && i >= from) {
                    maxGapFrom = Math.max(maxGapFrom, now - last);
                }
                if (i > 0 && now - last >= LONG_GAP_NANOS && longGapCount++ < 10) {
                    longGaps.append(longGaps.length() == 0 ? "" : ",").append(i).append(':')
                            .append((now - last) / 1_000_000);
                }
                last = now;
                if (m == null) {
                    System.out.println("FAIL timeout after " + i + " messages");
                    return;
                }
                if (m.getIntProperty("seq") != i) {
                    System.out.println("FAIL expected seq " + i + " got " + m.getIntProperty("seq"));
                    return;
                }
            }
            System.gc();
            MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
            System.out.println("DONE " + count + " lost=" + lostReports.get() + " heapAfterGcMiB="
                    + (heap.getUsed() >> 20) + " peakUsedMiB=" + (peakUsed.get() >> 20) + " maxGapMs="
                    + maxGap / 1_000_000 + " maxGapBefore=" + maxGapBefore + " maxGapFromMs=" + maxGapFrom / 1_000_000
                    + " gaps=[" + longGaps + "]");
            System.out.flush();
        }
    }
}
