package org.fjm2.store;

import org.apache.activemq.artemis.core.io.IOCallback;
import org.apache.activemq.artemis.core.io.IOCriticalErrorListener;
import org.apache.activemq.artemis.core.io.nio.NIOSequentialFileFactory;
import org.apache.activemq.artemis.core.journal.IOCompletion;
import org.apache.activemq.artemis.core.journal.PreparedTransactionInfo;
import org.apache.activemq.artemis.core.journal.RecordInfo;
import org.apache.activemq.artemis.core.journal.impl.JournalImpl;
import org.apache.activemq.artemis.core.journal.impl.dataformat.ByteArrayEncoding;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The store's journal: Apache Artemis' append-only journal (NIO files, fsync on every acknowledged write, group
 * commit through its write buffer) holding one add record per stored message and a delete record per message that
 * retention dropped. Artemis does the file format, checksums, crash recovery, file reuse and compaction; this class
 * only says what a record is ({@link JournalRecordCodec}, {@link SubscriptionRecordCodec} for durable
 * subscriptions: an add record, an update per position change, a delete on unsubscribe). Used by one thread (the journal writer).
 */
final class StoreJournal implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StoreJournal.class);

    /** Subscription records are synced with the group commit; nobody waits for it. */
    private static final IOCompletion NOT_WAITED_FOR = new Completion(new IOCallback() {
        @Override
        public void done() {
        }

        @Override
        public void onError(int errorCode, String errorMessage) {
            org.slf4j.LoggerFactory.getLogger(StoreJournal.class).error("could not journal a durable subscription "
                    + "record: {}", errorMessage);
        }
    });

    private final Path directory;
    private final CriticalErrors critical;
    private final JournalImpl journal;
    private final List<StoredMessage> recovered;
    private final List<Subscription> subscriptions;

    private StoreJournal(Path directory, CriticalErrors critical, JournalImpl journal, List<StoredMessage> recovered,
                         List<Subscription> subscriptions) {
        this.directory = directory;
        this.critical = critical;
        this.journal = journal;
        this.recovered = recovered;
        this.subscriptions = subscriptions;
    }

    /**
     * Opens (or creates) the journal in {@code directory} and reads what it holds.
     *
     * @throws IOException naming the file when a journal file is damaged, or a record that is not a stored message
     */
    static StoreJournal open(Path directory) throws IOException {
        Files.createDirectories(directory);
        JournalFileCheck.check(directory);
        CriticalErrors critical = new CriticalErrors(directory);
        NIOSequentialFileFactory files = new NIOSequentialFileFactory(directory.toFile(), true,
                JournalSettings.BUFFER_BYTES, JournalSettings.BUFFER_TIMEOUT_NANOS, JournalSettings.MAX_IO, false);
        JournalImpl journal = new JournalImpl(JournalSettings.FILE_BYTES, JournalSettings.MIN_FILES,
                JournalSettings.POOL_FILES, JournalSettings.COMPACT_MIN_FILES, JournalSettings.COMPACT_PERCENTAGE,
                files, JournalSettings.FILE_PREFIX, JournalSettings.FILE_EXTENSION, JournalSettings.MAX_IO);
        journal.setCriticalErrorListener(critical);     // after: the journal installs its own (a no-op) on the files
        List<RecordInfo> records = new ArrayList<>();
        try {
            journal.start();
            journal.load(records, new ArrayList<PreparedTransactionInfo>(), (transactionId, r, d) -> { }, true);
        } catch (Exception e) {
            stopQuietly(journal);
            throw new IOException("cannot read the journal in " + directory + ": " + e, e);
        }
        List<StoredMessage> messages = new ArrayList<>(records.size());
        // A subscription's add record, then its updates, each with the whole state: the last one read wins.
        Map<Long, Subscription> subscriptions = new LinkedHashMap<>();
        try {
            for (RecordInfo r : records) {
                if (r.getUserRecordType() == JournalSettings.SUBSCRIPTION_RECORD) {
                    subscriptions.put(r.id, SubscriptionRecordCodec.decode(r.id, r.data));
                    continue;
                }
                if (r.getUserRecordType() != JournalSettings.MESSAGE_RECORD) {
                    throw new IllegalArgumentException("journal record " + r.id + " has unknown type "
                            + r.getUserRecordType());
                }
                messages.add(JournalRecordCodec.decode(r.id, r.data));
            }
        } catch (IllegalArgumentException e) {
            stopQuietly(journal);
            throw new JournalFileCheck.CorruptJournalException("the journal in " + directory + " holds a record that "
                    + "is not a stored message: " + e.getMessage());
        }
        messages.sort(Comparator.comparingLong(StoredMessage::id));
        return new StoreJournal(directory, critical, journal, messages, new ArrayList<>(subscriptions.values()));
    }

    /** The durable subscriptions the journal held when opened. */
    List<Subscription> subscriptions() {
        return subscriptions;
    }

    /** What the journal held when opened, in id order (the order the store received them). */
    List<StoredMessage> recovered() {
        return recovered;
    }

    Path directory() {
        return directory;
    }

    int fileCount() {
        return journal.getDataFilesCount();
    }

    /**
     * Appends a message, to be fsync'd; {@code done} runs (on Artemis' thread) once it is on disk. Completions come
     * in append order.
     */
    void append(long id, byte[] data, IOCallback done) throws Exception {
        critical.check();
        journal.appendAddRecord(id, JournalSettings.MESSAGE_RECORD, new ByteArrayEncoding(data), true,
                new Completion(done));
    }

    /**
     * Journals a new durable subscription, fsync'd with the next group commit; not waited for (the writer thread
     * goes on; a crash before the fsync loses the subscription as if it had never been asked for).
     */
    void addSubscription(Subscription s) throws Exception {
        critical.check();
        journal.appendAddRecord(s.journalId(), JournalSettings.SUBSCRIPTION_RECORD,
                new ByteArrayEncoding(SubscriptionRecordCodec.encode(s)), true, NOT_WAITED_FOR);
    }

    /** Journals a subscription's new state (its position moved, or it was replaced); fsync'd, not waited for. */
    void updateSubscription(Subscription s) throws Exception {
        critical.check();
        journal.appendUpdateRecord(s.journalId(), JournalSettings.SUBSCRIPTION_RECORD,
                new ByteArrayEncoding(SubscriptionRecordCodec.encode(s)), true, NOT_WAITED_FOR);
    }

    /** Removes a subscription (unsubscribe); fsync'd, not waited for. */
    void deleteSubscription(Subscription s) throws Exception {
        critical.check();
        journal.appendDeleteRecord(s.journalId(), true, NOT_WAITED_FOR);
    }

    /** Drops a message (retention); not waited for: losing the delete in a crash only keeps the message longer. */
    void delete(long id) throws Exception {
        journal.appendDeleteRecord(id, false);
    }

    @Override
    public void close() {
        stopQuietly(journal);
    }

    private static void stopQuietly(JournalImpl journal) {
        try {
            journal.stop();
        } catch (Exception e) {
            // closing what failed to open, or on shutdown: nothing more to do
        }
    }

    /** Artemis' completion type around a plain callback. */
    private record Completion(IOCallback callback) implements IOCompletion {
        @Override
        public void storeLineUp() {
        }

        @Override
        public void done() {
            callback.done();
        }

        @Override
        public void onError(int errorCode, String errorMessage) {
            callback.onError(errorCode, errorMessage);
        }
    }

    /** The first critical I/O error of the journal (a full disk), if any: no write was taken since. */
    String failure() {
        return critical.first;
    }

    /**
     * Artemis' critical I/O errors (a full disk: the next journal file cannot be made). After the first, the journal
     * takes no more writes: an append would wait for a file that never comes, the store's hand-off would fill and
     * hold back every publisher of the group, as a slow subscriber does. Refused at once instead, a PERSISTENT send
     * fails at its sendTimeout while the rest of the group goes on; what was acknowledged before is on disk.
     */
    private static final class CriticalErrors implements IOCriticalErrorListener {

        private final Path directory;
        private volatile String first;

        CriticalErrors(Path directory) {
            this.directory = directory;
        }

        @Override
        public void onIOException(Throwable cause, String message, String file) {
            if (first != null) {
                return;
            }
            first = (message == null ? String.valueOf(cause) : message) + (file == null ? "" : " (" + file + ")");
            LOG.error("the journal in {} failed: {}. The store acknowledges no more messages (PERSISTENT sends fail "
                    + "at their sendTimeout); what it acknowledged before is on disk. Make room and restart the store.",
                    directory, first);
        }

        @Override
        public boolean isPreviouslyFailed() {
            return first != null;
        }

        void check() throws IOException {
            String failure = first;
            if (failure != null) {
                throw new IOException("the journal in " + directory + " failed earlier: " + failure);
            }
        }
    }
}
