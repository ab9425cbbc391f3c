package org.fjm2.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.apache.activemq.artemis.core.io.IOCallback;
import org.fjm2.jms.wire.MessageHeaderFlyweight;
import org.fjm2.jms.wire.WireWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** The journal: what is appended comes back in order after a reopen; a damaged file stops the store, named. */
class JournalTest {

    @TempDir
    Path dir;

    /** A minimal FJM2 message record (fixed part and topic) numbered {@code sequence}. */
    static ByteBuf record(String topic, int producer, long sequence) {
        ByteBuf buf = Unpooled.buffer();
        buf.writeInt(0).writeByte(MessageHeaderFlyweight.KIND_MESSAGE).writeByte(MessageHeaderFlyweight.FLAG_PERSISTENT)
                .writeByte(4).writeByte(0).writeInt(producer).writeLong(sequence).writeLong(1).writeLong(0)
                .writeLong(0);
        WireWriter.writeShortString(buf, topic);
        buf.setInt(0, buf.writerIndex());
        return buf;
    }

    private static void appendAndWait(StoreJournal journal, long id, String topic, long sequence) throws Exception {
        ByteBuf r = record(topic, 7, sequence);
        CountDownLatch onDisk = new CountDownLatch(1);
        journal.append(id, JournalRecordCodec.encode(42, 99L, 1000 + id, r, 0, r.readableBytes()), new IOCallback() {
            @Override
            public void done() {
                onDisk.countDown();
            }

            @Override
            public void onError(int errorCode, String errorMessage) {
                throw new AssertionError(errorMessage);
            }
        });
        assertThat(onDisk.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void whatWasAppendedComesBackInOrderAfterAReopen() throws Exception {
        try (StoreJournal journal = StoreJournal.open(dir)) {
            assertThat(journal.recovered()).isEmpty();
            for (int i = 1; i <= 100; i++) {
                appendAndWait(journal, i, "t" + (i % 3), i);
            }
            journal.delete(1);
        }
        List<StoredMessage> back = Fjm2Store.readJournal(dir);
        assertThat(back).hasSize(99);
        assertThat(back).extracting(StoredMessage::sequence).isSorted().startsWith(2L, 3L).endsWith(100L);
        StoredMessage last = back.get(98);
        assertThat(last.node()).isEqualTo(42);
        assertThat(last.epoch()).isEqualTo(99L);
        assertThat(last.storedAtMillis()).isEqualTo(1100);
        assertThat(last.topic()).isEqualTo("t1");
        assertThat(last.producerId()).isEqualTo(7);
    }

    @Test
    void aTruncatedFileStopsTheStoreNamingIt() throws Exception {
        try (StoreJournal journal = StoreJournal.open(dir)) {
            appendAndWait(journal, 1, "t", 1);
        }
        Path file = JournalFileCheck.journalFiles(dir).get(0);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(5000);
        }
        assertThatThrownBy(() -> StoreJournal.open(dir))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("truncated")
                .hasMessageContaining("5000 bytes")
                .hasMessageContaining("move " + file.getFileName());
    }

    @Test
    void aFileWithAForeignHeaderStopsTheStoreNamingIt() throws Exception {
        try (StoreJournal journal = StoreJournal.open(dir)) {
            appendAndWait(journal, 1, "t", 1);
        }
        Path file = JournalFileCheck.journalFiles(dir).get(0);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(java.nio.ByteBuffer.wrap("garbage!".getBytes()), 0);
        }
        assertThatThrownBy(() -> StoreJournal.open(dir))
                .hasMessageContaining(file.toString())
                .hasMessageContaining("does not start with an Artemis journal header");
    }

    @Test
    void aFileLeftEmptyByACrashDuringItsCreationIsRemoved() throws Exception {
        try (StoreJournal journal = StoreJournal.open(dir)) {
            appendAndWait(journal, 1, "t", 1);
        }
        Path unwritten = dir.resolve(JournalSettings.FILE_PREFIX + "-999." + JournalSettings.FILE_EXTENSION);
        Files.write(unwritten, new byte[0]);
        assertThat(Fjm2Store.readJournal(dir)).hasSize(1);
        assertThat(unwritten).doesNotExist();
    }
}
