package org.fjm2.cli.store;

import org.fjm2.store.Fjm2Store;
import org.fjm2.store.StoreCounters;
import org.fjm2.store.StoreSettings;
import org.fjm2.store.TopicPattern;
import org.fjm2.util.Quantities;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code fjm2 store}: runs an FJM2 store (fjm2-store) until stopped by a signal, logging what it recovered, what it
 * keeps and, every {@code --status-interval}, what it stored.
 */
@Command(name = "store",
        mixinStandardHelpOptions = true,
        description = {"Run an FJM2 store: join the group like a subscriber, write every PERSISTENT message of the "
                + "kept topics to a journal in --data (Apache Artemis journal, fsync'd) and acknowledge it to the "
                + "publisher once it is on disk. Publishers with storeQuorum=N in their URL return from a "
                + "PERSISTENT send only once N stores acknowledged it.",
            "Killed (even with -9) and restarted on the same --data, the store has every message it acknowledged. "
                    + "A damaged journal file (truncated, overwritten) stops the start with an error naming it. "
                    + "Give every store of a group its own --name: publishers count stores by name. "
                    + "Ctrl-C or SIGTERM stops it after journaling and acknowledging what it received.",
            "Example: fjm2 store --url 'norm://239.255.0.1:6003?interface=eth0' --data /var/lib/fjm2/store-a"})
public final class StoreCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(StoreCommand.class);

    @Option(names = "--url", required = true, paramLabel = "URL",
            description = "The group, as its publishers and subscribers write it, e.g. "
                    + "'norm://239.255.0.1:6003?interface=eth0'. Transport parameters apply (interface, rate, "
                    + "security, keyFile...); JMS parameters such as storeQuorum are accepted and ignored.")
    String url;

    @Option(names = "--data", required = true, paramLabel = "DIR",
            description = "Directory of the journal (files fjm2-store-N.jnl of 10 MiB); created when missing.")
    Path data;

    @Option(names = "--topics", defaultValue = StoreSettings.TOPICS_DEFAULT, paramLabel = "PATTERN",
            description = "Topics whose PERSISTENT messages are kept: comma-separated names, * for any characters, "
                    + "e.g. 'orders.*,prices' (default: ${DEFAULT-VALUE}, every topic). Messages of other topics "
                    + "are not acknowledged by this store.")
    String topics;

    @Option(names = "--retention-bytes", defaultValue = "1g", paramLabel = "N",
            description = "Keep at most this many bytes of messages, dropping the oldest, e.g. 500m, 20g; 0: no "
                    + "limit (default: ${DEFAULT-VALUE}).")
    String retentionBytes;

    @Option(names = "--retention-time", defaultValue = "168h", paramLabel = "D",
            description = "Drop messages older than this, e.g. 30min, 24h; 0: no limit (default: ${DEFAULT-VALUE}, "
                    + "a week).")
    String retentionTime;

    @Option(names = "--name", paramLabel = "NAME",
            description = "How the store names itself to publishers (in their errors); unique per group "
                    + "(default: the last element of --data).")
    String name;

    @Option(names = "--catch-up-wait", defaultValue = "1s", paramLabel = "D",
            description = "At start, ask the group's other stores for the messages of --topics they received while "
                    + "this one was down (since shortly before its journal's newest) and wait this long for the "
                    + "first answer before acknowledging anything; 0: no catch-up (default: ${DEFAULT-VALUE}).")
    String catchUpWait;

    @Option(names = "--status-interval", defaultValue = "10s", paramLabel = "D",
            description = "Log what was stored every D, when anything changed; 0: never (default: ${DEFAULT-VALUE}).")
    String statusInterval;

    private final CountDownLatch stopped = new CountDownLatch(1);

    @Override
    public Integer call() throws Exception {
        StoreSettings settings = settings();
        Duration status = Quantities.duration("--status-interval", statusInterval);
        Fjm2Store store = Fjm2Store.start(settings);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("stopping the store (signal)");
            store.close();
            stopped.countDown();
        }, "fjm2-store-shutdown"));
        System.out.printf("fjm2 store '%s' is running (node %s, %d message(s) recovered from %s). Ctrl-C stops it.%n",
                store.name(), Integer.toUnsignedString(store.nodeId()), store.recoveredMessages(),
                settings.dataDirectory().toAbsolutePath().normalize());
        System.out.flush();
        StatusLine line = new StatusLine(store.counters());
        while (!stopped.await(status.isZero() ? Long.MAX_VALUE : status.toMillis(), TimeUnit.MILLISECONDS)) {
            line.logIfChanged();
        }
        return 0;
    }

    /** The options as settings; a bad value fails naming its option. */
    StoreSettings settings() {
        long bytes = Quantities.bytes("--retention-bytes", retentionBytes);
        Duration time = Quantities.duration("--retention-time", retentionTime);
        Duration catchUp = Quantities.duration("--catch-up-wait", catchUpWait);
        StoreSettings settings = StoreSettings.of(url, data).withTopics(parseTopics()).withRetention(bytes, time)
                .withCatchUpWait(catchUp);
        return name == null ? settings : settings.withName(name);
    }

    private TopicPattern parseTopics() {
        try {
            return TopicPattern.parse(topics);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--topics: " + e.getMessage());
        }
    }

    /** One INFO line with the counters, when they moved since the last one. */
    private static final class StatusLine {
        private final StoreCounters counters;
        private String last = "";

        StatusLine(StoreCounters counters) {
            this.counters = counters;
        }

        void logIfChanged() {
            String now = String.format("stored %,d message(s) (%s) this run (%,d caught up from a peer), %,d "
                            + "acknowledgement record(s) sent; not kept %,d, duplicates %,d, objects lost before the "
                            + "store %,d, malformed %,d, write failures %,d, dropped by retention %,d, peers' catch-up "
                            + "requests refused %,d", counters.messagesStored.sum(),
                    Quantities.formatBytes(counters.bytesStored.sum()), counters.messagesCaughtUp.sum(),
                    counters.acknowledgementsSent.sum(), counters.messagesNotKept.sum(), counters.duplicates.sum(),
                    counters.objectsLost.sum(), counters.malformed.sum(), counters.writeFailures.sum(),
                    counters.messagesExpired.sum(), counters.catchUpRequestsRefused.sum());
            if (!now.equals(last)) {
                LOG.info(now);
                last = now;
            }
        }
    }
}
