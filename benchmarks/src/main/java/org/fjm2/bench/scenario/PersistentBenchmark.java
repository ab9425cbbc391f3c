package org.fjm2.bench.scenario;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.jms.BytesMessage;
import jakarta.jms.CompletionListener;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import org.HdrHistogram.Histogram;
import org.fjm2.bench.artemis.EmbeddedArtemis;
import org.fjm2.bench.options.QuantityConverters;
import org.fjm2.bench.report.Plot;
import org.fjm2.bench.report.ProgressBar;
import org.fjm2.bench.report.ResultFiles;
import org.fjm2.bench.report.ResultTable;
import org.fjm2.jms.Fjm2ConnectionFactory;
import org.fjm2.store.Fjm2Store;
import org.fjm2.store.StoreSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fjm2 bench persistent} (issue 17): PERSISTENT messages acknowledged once they are on disk. FJM2 with 1 and
 * with 2 stores ({@code storeQuorum} = the number of stores: a send completes once every store fsync'd it) against
 * ActiveMQ Artemis with its persistent journal (NIO, synced before a send is confirmed; the subscriber is a durable
 * one, or Artemis would not journal the messages at all). Everything runs in this JVM on loopback: the broker or the
 * stores, the publisher and one subscriber, so both sides pay for the same cores. Two measurements per system:
 * asynchronous sends ({@link CompletionListener}, at most {@code --window} outstanding) for messages per second, then
 * synchronous sends one at a time for the latency of a PERSISTENT send (HdrHistogram, p50 and p99). The subscriber
 * must get every message.
 */
@Command(name = "persistent", mixinStandardHelpOptions = true,
        description = {"PERSISTENT 1 KB messages acknowledged on disk: FJM2 with 1 and 2 stores vs Artemis with its "
                + "persistent journal (msgs/s of asynchronous sends, latency of synchronous ones).",
                "Prints a table, writes persistent.{csv,png} into --out."})
public final class PersistentBenchmark implements Callable<Integer> {

    /** Messages sent before measuring (JIT warm-up; stores and subscriber found). */
    static final int WARM_UP_MESSAGES = 1_000;
    /** How long the subscriber may take to get the last message after the last send completed. */
    static final long DELIVERY_TIMEOUT_SECONDS = 60;
    /** The topic every run publishes on. */
    static final String TOPIC = "bench.persistent";

    @Option(names = "--messages", defaultValue = "20000",
            description = "Asynchronous sends measured per system. Default: ${DEFAULT-VALUE}.")
    int messages;

    @Option(names = "--latency-messages", defaultValue = "2000",
            description = "Synchronous sends timed per system. Default: ${DEFAULT-VALUE}.")
    int latencyMessages;

    @Option(names = "--size", converter = QuantityConverters.Bytes.class, defaultValue = "1000",
            description = "Message body, bytes. Default: ${DEFAULT-VALUE}.")
    int size;

    @Option(names = "--stores", split = ",", defaultValue = "1,2",
            description = "Store counts to measure (storeQuorum = the count). Default: ${DEFAULT-VALUE}.")
    List<Integer> storeCounts;

    @Option(names = "--window", defaultValue = "1000",
            description = "Asynchronous sends outstanding at most. Default: ${DEFAULT-VALUE}.")
    int window;

    @Option(names = "--group", defaultValue = "239.255.91.7:6091", description = "Multicast group:port. Default: ${DEFAULT-VALUE}.")
    String group;

    @Option(names = "--interface", defaultValue = "lo", description = "Interface. Default: ${DEFAULT-VALUE}.")
    String interfaceName;

    @Option(names = "--data", description = "Directory for the journals (a fresh temporary one by default; on the "
            + "disk you want measured).")
    Path data;

    @Option(names = "--quick", description = "Short run (3,000 + 500 messages per system).")
    boolean quick;

    @Option(names = "--out", defaultValue = ResultFiles.DEFAULT_DIRECTORY,
            description = "Output directory (benchmarks/results for the committed results). Default: ${DEFAULT-VALUE}.")
    Path out;

    /** What one system measured. */
    record Result(String system, int stores, double messagesPerSecond, double p50Micros, double p99Micros,
                  long delivered, long expected, long failedSends) {
    }

    @Override
    public Integer call() throws Exception {
        if (messages < 1 || latencyMessages < 1 || size < 1 || window < 1 || storeCounts.stream().anyMatch(n -> n < 1)) {
            throw new IllegalArgumentException("--messages, --latency-messages, --size, --window and --stores must be "
                    + "positive");
        }
        int throughputCount = quick ? Math.min(messages, 3_000) : messages;
        int latencyCount = quick ? Math.min(latencyMessages, 500) : latencyMessages;
        Path root = data != null ? Files.createDirectories(data) : Files.createTempDirectory("fjm2-bench-persistent");
        ProgressBar progress = new ProgressBar("persistent", 1L + storeCounts.size());
        List<Result> results = new ArrayList<>();
        try {
            int port = 42000 + (int) (ProcessHandle.current().pid() % 1000) * 10;
            Result artemis = measureArtemis(root.resolve("artemis"), port, throughputCount, latencyCount);
            results.add(artemis);
            progress.step(summary(artemis));
            for (int stores : storeCounts) {
                Result r = measureFjm2(root.resolve("fjm2-" + stores), stores, throughputCount, latencyCount);
                results.add(r);
                progress.step(summary(r));
            }
        } finally {
            if (data == null) {
                Directories.deleteTree(root);
            }
        }
        Result base = results.get(0);
        ResultTable table = new ResultTable(String.format("PERSISTENT %d-byte messages acknowledged on disk, one "
                        + "publisher and one subscriber on loopback: %d asynchronous sends (window %d), %d synchronous",
                size, throughputCount, window, latencyCount),
                "system", "stores", "msgs_per_s", "vs_artemis", "send_p50_us", "send_p99_us", "p99_vs_artemis",
                "delivered", "expected", "failed_sends");
        for (Result r : results) {
            table.row(r.system, r.stores, r.messagesPerSecond, r.messagesPerSecond / base.messagesPerSecond,
                    r.p50Micros, r.p99Micros, r.p99Micros / base.p99Micros, r.delivered, r.expected, r.failedSends);
        }
        table.print(System.out);
        Path csv = out.resolve("persistent.csv");
        Path png = out.resolve("persistent.png");
        table.writeCsv(csv);
        Plot.bars(png, "PERSISTENT sends acknowledged on disk (same run)", "", "",
                List.of("thousand msgs/s (async)", "send p50, ms", "send p99, ms"),
                results.stream().map(r -> r.system).toList(),
                results.stream().map(r -> new double[] {r.messagesPerSecond / 1000, r.p50Micros / 1000,
                        r.p99Micros / 1000}).toList());
        System.out.println("wrote " + csv + " and " + png);
        for (Result r : results.subList(1, results.size())) {
            System.out.printf("%s: %.2fx Artemis msgs/s, send p99 %.2fx Artemis's%n", r.system,
                    r.messagesPerSecond / base.messagesPerSecond, r.p99Micros / base.p99Micros);
        }
        boolean incomplete = results.stream().anyMatch(r -> r.delivered < r.expected || r.failedSends > 0);
        if (incomplete) {
            System.err.println("fjm2 bench persistent: a subscriber missed messages or sends failed (see delivered, "
                    + "failed_sends)");
            return 1;
        }
        return 0;
    }

    private static String summary(Result r) {
        return String.format("%s: %.0f msgs/s, send p99 %.0f us", r.system, r.messagesPerSecond, r.p99Micros);
    }

    private Result measureArtemis(Path journal, int port, int throughputCount, int latencyCount) throws Exception {
        try (EmbeddedArtemis broker = EmbeddedArtemis.start(port, journal)) {
            // A confirmation window makes sends with a CompletionListener asynchronous (without one Artemis blocks).
            ConnectionFactory factory = EmbeddedArtemis.connectionFactory(broker.url() + "&confirmationWindowSize="
                    + (1 << 20));
            return measure("Artemis (journal, sync)", 0, factory, true, throughputCount, latencyCount);
        }
    }

    private Result measureFjm2(Path directory, int stores, int throughputCount, int latencyCount) throws Exception {
        String url = "norm://" + group + "?interface=" + interfaceName;
        List<Fjm2Store> running = new ArrayList<>();
        try {
            for (int i = 1; i <= stores; i++) {
                running.add(Fjm2Store.start(StoreSettings.of(url, directory.resolve("store-" + i))
                        .withName("bench-store-" + i)));
            }
            ConnectionFactory factory = new Fjm2ConnectionFactory(url + "&storeQuorum=" + stores);
            return measure("FJM2, " + stores + (stores == 1 ? " store" : " stores"), stores, factory, false,
                    throughputCount, latencyCount);
        } finally {
            for (Fjm2Store store : running) {
                store.close();
            }
        }
    }

    /**
     * Warm-up, then the asynchronous sends, then the synchronous ones; a subscriber (durable when
     * {@code durableSubscriber}: Artemis journals only what a durable queue holds) counts what arrives.
     */
    private Result measure(String system, int stores, ConnectionFactory factory, boolean durableSubscriber,
                           int throughputCount, int latencyCount) throws Exception {
        Connection subscriberConnection = factory.createConnection();
        if (durableSubscriber) {
            subscriberConnection.setClientID("fjm2-bench-persistent");
        }
        Connection publisherConnection = factory.createConnection();
        try {
            AtomicLong delivered = new AtomicLong();
            Session subscriberSession = subscriberConnection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic topic = subscriberSession.createTopic(TOPIC);
            MessageConsumer consumer;
            if (durableSubscriber) {
                consumer = subscriberSession.createDurableSubscriber(topic, "bench");
            } else {
                consumer = subscriberSession.createConsumer(topic);
            }
            consumer.setMessageListener(m -> delivered.incrementAndGet());
            subscriberConnection.start();
            Session session = publisherConnection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = session.createProducer(session.createTopic(TOPIC));
            producer.setDeliveryMode(DeliveryMode.PERSISTENT);
            byte[] body = new byte[size];
            for (int i = 0; i < WARM_UP_MESSAGES; i++) {
                producer.send(message(session, body));
            }
            AtomicLong failed = new AtomicLong();
            double perSecond = sendAsynchronously(session, producer, body, throughputCount, failed);
            Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
            for (int i = 0; i < latencyCount; i++) {
                BytesMessage m = message(session, body);
                long start = System.nanoTime();
                producer.send(m);
                latency.recordValue(Math.min(System.nanoTime() - start, latency.getHighestTrackableValue()));
            }
            long expected = WARM_UP_MESSAGES + throughputCount + latencyCount;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DELIVERY_TIMEOUT_SECONDS);
            while (delivered.get() < expected && System.nanoTime() - deadline < 0) {
                Thread.sleep(10);
            }
            if (durableSubscriber) {
                consumer.close();
                subscriberSession.unsubscribe("bench");
            }
            return new Result(system, stores, perSecond, latency.getValueAtPercentile(50) / 1e3,
                    latency.getValueAtPercentile(99) / 1e3, delivered.get(), expected, failed.get());
        } finally {
            publisherConnection.close();
            subscriberConnection.close();
        }
    }

    /** Messages per second of {@code count} sends with at most {@link #window} outstanding, until the last completed. */
    private double sendAsynchronously(Session session, MessageProducer producer, byte[] body, int count,
                                      AtomicLong failed) throws JMSException, InterruptedException {
        Semaphore outstanding = new Semaphore(window);
        AtomicReference<Exception> firstFailure = new AtomicReference<>();
        CompletionListener listener = new CompletionListener() {
            @Override
            public void onCompletion(Message message) {
                outstanding.release();
            }

            @Override
            public void onException(Message message, Exception exception) {
                failed.incrementAndGet();
                firstFailure.compareAndSet(null, exception);
                outstanding.release();
            }
        };
        long start = System.nanoTime();
        for (int i = 0; i < count; i++) {
            outstanding.acquire();
            producer.send(message(session, body), listener);
        }
        if (!outstanding.tryAcquire(window, DELIVERY_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            throw new IllegalStateException("asynchronous sends not completed within " + DELIVERY_TIMEOUT_SECONDS + " s");
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        if (firstFailure.get() != null) {
            System.err.println("a send failed: " + firstFailure.get());
        }
        return count / seconds;
    }

    private static BytesMessage message(Session session, byte[] body) throws JMSException {
        BytesMessage m = session.createBytesMessage();
        m.writeBytes(body);
        return m;
    }
}
