package org.fjm2.store;

import org.fjm2.jms.JmsParameters;
import org.fjm2.jms.transport.ObjectTransport;
import org.fjm2.jms.transport.TransportUrl;
import org.fjm2.jms.wire.BatchHeaderFlyweight;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;

/**
 * An FJM2 store: joins the group like any subscriber, journals every PERSISTENT message of the topics it keeps
 * (Artemis journal, fsync'd) and multicasts a positive acknowledgement once each is on disk, which publishers with
 * {@code storeQuorum=N} wait for; keeps durable subscriptions and replays to them what they did not acknowledge.
 * Threads, each owning its part: the transport's receive thread
 * ({@link StoreReceiver}), the journal writer ({@link JournalWriter}) and the acknowledgement publisher
 * ({@link AckPublisher}).
 */
public final class Fjm2Store implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Fjm2Store.class);
    /** How long close() lets the journal writer and the acknowledgements finish. */
    static final long CLOSE_TIMEOUT_MILLIS = 10_000;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final StoreSettings settings;
    private final StoreCounters counters = new StoreCounters();
    private final StoreJournal journal;
    private final int recoveredMessages;
    private ObjectTransport transport;
    private JournalWriter writer;
    private AckPublisher acks;
    private StoreReceiver receiver;

    private Fjm2Store(StoreSettings settings, StoreJournal journal) {
        this.settings = settings;
        this.journal = journal;
        this.recoveredMessages = journal.recovered().size();
    }

    /**
     * Opens the journal (recovering what it holds), joins the group and starts storing.
     *
     * @throws IOException              a damaged journal (naming the file), or a transport that cannot open
     * @throws IllegalArgumentException a bad URL, naming the parameter
     */
    public static Fjm2Store start(StoreSettings settings) throws IOException {
        TransportUrl url = TransportUrl.parse(settings.url(), JmsParameters::isJmsParameter,
                "the JMS layer's parameters are accepted and ignored");
        StoreJournal journal = StoreJournal.open(settings.dataDirectory());
        Fjm2Store store = new Fjm2Store(settings, journal);
        try {
            store.join(url);
        } catch (IOException | RuntimeException e) {
            store.close();
            throw e;
        }
        return store;
    }

    private void join(TransportUrl url) throws IOException {
        MessageIndex index = new MessageIndex();
        for (StoredMessage m : journal.recovered()) {
            index.add(m.id(), m.storedAtMillis(), JournalRecordCodec.HEADER_LENGTH + m.record().length);
        }
        LOG.info("store '{}': journal {} holds {} message(s) ({} bytes) in {} file(s)", settings.name(),
                journal.directory(), index.size(), index.bytes(), journal.fileCount());
        transport = url.factory().create(url.uri(), url.transportParameters());
        long epoch = BatchHeaderFlyweight.epochOf(System.currentTimeMillis(), RANDOM.nextLong());
        acks = new AckPublisher(transport, settings.name(), epoch, counters);
        ReplaySender replays = new ReplaySender(transport, settings.name(), epoch);
        writer = new JournalWriter(journal, index, journal.recovered(),
                new Retention(settings.retentionBytes(), settings.retentionTime()), acks, replays, counters);
        acks.start();
        writer.start();
        transport.holdAcknowledgementsWhile(writer::backedUp);
        receiver = new StoreReceiver(settings.topics(), writer, counters);
        CatchUp catchUp = settings.catchUpWait().isZero() ? null
                : new CatchUp(transport.localNodeId(), settings.name(), settings.topics(), journal.recovered());
        if (catchUp != null) {
            acks.hold();
            receiver.catchingUp(catchUp);
        }
        transport.start(receiver);
        LOG.info("store '{}' (node {}) listening on {}: keeping PERSISTENT messages of topics '{}', retention {} "
                        + "bytes / {}", settings.name(), Integer.toUnsignedString(transport.localNodeId()),
                settings.url(), settings.topics(), settings.retentionBytes() == 0 ? "unlimited"
                        : settings.retentionBytes(), settings.retentionTime().isZero() ? "unlimited"
                        : settings.retentionTime());
        if (catchUp != null) {
            catchUp(catchUp, replays);
        }
    }

    /**
     * Asks the peer stores for what this one missed and waits for the first answer ({@link CatchUp}); acknowledges
     * nothing before.
     */
    private void catchUp(CatchUp catchUp, ReplaySender replays) throws IOException {
        long started = System.nanoTime();
        try {
            if (!replays.sendCatchUpRequest(catchUp, settings.topics())) {
                LOG.warn("store '{}': the catch-up request could not be sent; acknowledging from now with what the "
                        + "journal holds", settings.name());
            }
            boolean complete = catchUp.await(settings.catchUpWait().toMillis());
            long millis = (System.nanoTime() - started) / 1_000_000;
            String since = catchUp.sinceMillis() == 0 ? "the start (its journal was empty)"
                    : java.time.Instant.ofEpochMilli(catchUp.sinceMillis()).toString();
            if (catchUp.answeringStore() == null) {
                LOG.info("store '{}': no peer store answered its catch-up request within {} ms; it holds what its "
                        + "journal held and what it hears from now", settings.name(), settings.catchUpWait().toMillis());
            } else if (complete) {
                LOG.info("store '{}': caught up from store '{}' in {} ms: {} message(s) it lacked, of {} received "
                        + "there since {}", settings.name(), catchUp.answeringStore(), millis,
                        catchUp.messagesTaken(), catchUp.messagesOffered(), since);
            } else {
                LOG.warn("store '{}': the catch-up answer of store '{}' did not complete within {} ms; carrying on "
                        + "with the {} message(s) it brought", settings.name(), catchUp.answeringStore(),
                        CatchUp.ANSWER_MAX_MILLIS, catchUp.messagesTaken());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while catching up from the peer stores");
        } finally {
            receiver.catchingUp(null);
            acks.release();
        }
    }

    /** Reads a journal directory without joining any group (tests and tools); the store must not be running. */
    public static List<StoredMessage> readJournal(Path dataDirectory) throws IOException {
        try (StoreJournal journal = StoreJournal.open(dataDirectory)) {
            return journal.recovered();
        }
    }

    public String name() {
        return settings.name();
    }

    public int nodeId() {
        return transport.localNodeId();
    }

    public StoreCounters counters() {
        return counters;
    }

    /** Messages the journal held when the store started. */
    public int recoveredMessages() {
        return recoveredMessages;
    }

    /**
     * Stops taking messages, journals what was received, closes the journal (its last fsync completes), sends the
     * last acknowledgements, then leaves the group.
     */
    @Override
    public void close() {
        if (receiver != null) {
            receiver.stop();
        }
        if (writer != null) {
            writer.close(CLOSE_TIMEOUT_MILLIS);
        }
        journal.close();
        if (acks != null) {
            acks.close(CLOSE_TIMEOUT_MILLIS);
        }
        if (transport != null) {
            transport.close();
        }
        LOG.info("store '{}' stopped: {} message(s) stored this run", settings.name(), counters.messagesStored.sum());
    }
}
