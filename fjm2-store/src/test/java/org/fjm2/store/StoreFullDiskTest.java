package org.fjm2.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.fjm2.jms.Fjm2ConnectionFactory;
import org.fjm2.testkit.netns.Exec;
import org.fjm2.testkit.netns.ExecResult;
import org.fjm2.testkit.netns.NetNs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk fails PERSISTENT sends with a JMSException, never silently (issue 17). The store's data directory is a
 * tmpfs of {@link #DISK_MIB} MiB: its two pre-allocated 10 MiB journal files fit, a third does not. A publisher with
 * {@code storeQuorum=1} sends 16 KiB messages until a send fails: once Artemis cannot make the next journal file the
 * store takes no more writes (it says so, naming the directory), so that send fails at its sendTimeout; every send that
 * returned is in the journal, read once room is made. Needs root (mount); skipped with the reason otherwise.
 */
class StoreFullDiskTest {

    static final int DISK_MIB = 24;
    static final int BODY_BYTES = 16 * 1024;
    /** 64 MiB: far beyond the disk. */
    static final int MAX_MESSAGES = 4096;

    @TempDir
    Path dir;

    @Test
    void aFullDiskFailsTheSendAndKeepsEverySendThatReturned() throws Exception {
        assumeTrue(NetNs.isRoot(), () -> skipped("not running as root: cannot mount a small tmpfs"));
        Path disk = Files.createDirectories(dir.resolve("disk"));
        ExecResult mounted = Exec.run("mount", "-t", "tmpfs", "-o", "size=" + DISK_MIB + "m", "fjm2-full-disk",
                disk.toString());
        assumeTrue(mounted.ok(), () -> skipped("mount -t tmpfs failed: " + mounted.stderr().strip()));
        try {
            Path data = disk.resolve("store");
            String group = TestGroups.url("");
            int returned = 0;
            JMSException failure = null;
            try (Fjm2Store store = Fjm2Store.start(StoreSettings.of(group, data).withName("store-on-small-disk"));
                 Connection c = new Fjm2ConnectionFactory(TestGroups.sameGroup(group,
                         "storeQuorum=1&sendTimeoutMillis=3000")).createConnection()) {
                Session s = c.createSession();
                MessageProducer p = s.createProducer(s.createTopic("orders"));
                byte[] body = new byte[BODY_BYTES];
                for (int i = 1; i <= MAX_MESSAGES && failure == null; i++) {
                    BytesMessage m = s.createBytesMessage();
                    m.writeBytes(body);
                    m.setIntProperty("seq", i);
                    try {
                        p.send(m);
                        returned = i;
                    } catch (JMSException e) {
                        failure = e;
                    }
                }
                System.out.printf("%d sends of %d KiB returned before the %d MiB disk was full; then: %s%n",
                        returned, BODY_BYTES / 1024, DISK_MIB, failure);
                assertThat(failure).as("a send fails once the disk is full").isNotNull();
                assertThat(failure.getMessage()).contains("storeQuorum=1").contains("store-on-small-disk");
                assertThat(store.counters().writeFailures.sum()).as("journal writes that failed").isPositive();
                assertThat(returned).as("sends that returned before the disk filled").isPositive();
            }
            // Opening a journal needs room for its next file: make room, as the store's error says to.
            Exec.run("mount", "-o", "remount,size=" + 4 * DISK_MIB + "m", disk.toString()).orThrow();
            List<StoredMessage> kept = Fjm2Store.readJournal(data);
            assertThat(kept.size()).as("messages in the journal").isGreaterThanOrEqualTo(returned);
            for (int i = 0; i < returned; i++) {
                assertThat(kept.get(i).sequence()).as("journal entry %d", i).isEqualTo(i + 1);
            }
        } finally {
            ExecResult unmounted = Exec.run("umount", disk.toString());
            if (!unmounted.ok()) {
                Exec.run("umount", "-l", disk.toString());
            }
        }
    }

    private static String skipped(String reason) {
        String line = "StoreFullDiskTest skipped: " + reason;
        System.out.println(line);
        return line;
    }
}
