package org.fjm2.norm.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** NRL sender to NRL receiver through the wrapper: proves the peer, its options and the event parsing work. */
class NrlPeerSmokeTest {

    private static final long SEED = 7;
    private static final int OBJECTS = 50;

    @Test
    void nrlSenderToNrlReceiverWithLossAndParity() {
        NrlPeer.assumeAvailable();
        String group = MulticastCapture.freshGroup();
        int port = MulticastCapture.freshPort();
        try (NrlPeer rx = NrlPeer.receiver(group, port).option("--id", 2).option("--count", OBJECTS)
                .option("--verify-seed", SEED).option("--rx-loss", 10).option("--timeout", 90).start()) {
            rx.awaitEvent("READY", Duration.ofSeconds(10));
            try (NrlPeer tx = NrlPeer.sender(group, port).option("--id", 1).option("--count", OBJECTS)
                    .option("--min", 1000).option("--max", 30000).option("--seed", SEED).flag("--info")
                    .option("--block", 16).option("--parity", 4).option("--auto-parity", 1)
                    .option("--tx-loss", 10).option("--linger", 30).option("--timeout", 90).start()) {
                NrlPeer.Event done = rx.awaitEvent("DONE", Duration.ofSeconds(100));
                assertThat(done.getLong("completed")).as(rx.describe()).isEqualTo(OBJECTS);
                assertThat(tx.history("SENT")).hasSize(OBJECTS);
            }
            List<NrlPeer.Event> received = rx.history("RX_OBJECT");
            assertThat(received).hasSize(OBJECTS);
            Set<Long> indexes = new HashSet<>();
            for (NrlPeer.Event object : received) {
                assertThat(object.get("verify")).as(object.line()).isEqualTo("ok");
                long index = object.getLong("index");
                indexes.add(index);
                int size = (int) object.getLong("size");
                // the Java generator must give the very bytes the C++ peer sent
                assertThat(size).isEqualTo(NrlPeer.objectSize(SEED, index, 1000, 30000));
                CRC32 crc = new CRC32();
                crc.update(NrlPeer.objectContent(SEED, index, size));
                assertThat(String.format("%08x", crc.getValue())).as(object.line()).isEqualTo(object.get("crc32"));
                assertThat(object.getText("info")).isEqualTo("obj-" + index + ".bin");
            }
            assertThat(indexes).hasSize(OBJECTS);
        }
    }

    @Test
    void watermarkAcknowledgedByTheReceiverAndFilesNamedFromNormInfo(@TempDir Path out) throws IOException {
        NrlPeer.assumeAvailable();
        String group = MulticastCapture.freshGroup();
        int port = MulticastCapture.freshPort();
        int[] sizes = {1, 100, 5000, 70000, 3};
        try (NrlPeer rx = NrlPeer.receiver(group, port).option("--id", 2).option("--count", sizes.length)
                .option("--verify-seed", 3).option("--out", out).option("--linger", 60).option("--timeout", 90)
                .start()) {
            rx.awaitEvent("READY", Duration.ofSeconds(10));
            try (NrlPeer tx = NrlPeer.sender(group, port).option("--id", 1).option("--sizes", "1,100,5000,70000,3")
                    .option("--seed", 3).flag("--info").option("--block", 16).option("--parity", 4)
                    .option("--ack", 2).option("--ack", 99).option("--linger", 0.2).option("--timeout", 60)
                    .start()) {
                // node 2 exists and acknowledges; node 99 does not exist, so the watermark as a whole fails
                NrlPeer.Event done = tx.awaitEvent("WATERMARK_DONE", Duration.ofSeconds(60));
                assertThat(done.get("result")).as(tx.describe()).isEqualTo("failed");
                List<NrlPeer.Event> perNode = tx.history("WATERMARK");
                assertThat(perNode).extracting(e -> e.get("node") + ":" + e.get("status"))
                        .containsExactlyInAnyOrder("2:SUCCESS", "99:FAILURE");
                assertThat(tx.awaitExit(Duration.ofSeconds(30))).isZero();
            }
            assertThat(rx.history("RX_OBJECT")).hasSize(sizes.length)
                    .allSatisfy(e -> assertThat(e.get("verify")).isEqualTo("ok"));
        }
        for (int i = 0; i < sizes.length; i++) {
            Path file = out.resolve("obj-" + i + ".bin");
            assertThat(Files.readAllBytes(file)).isEqualTo(NrlPeer.objectContent(3, i, sizes[i]));
        }
    }

    @Test
    void badOptionIsRefusedWithOneLineReason() {
        NrlPeer.assumeAvailable();
        try (NrlPeer peer = NrlPeer.sender("239.255.0.1", 6003).option("--count", "many").start()) {
            NrlPeer.Event error = peer.awaitEvent("ERROR", Duration.ofSeconds(10));
            assertThat(error.getText("reason")).isEqualTo("bad number for --count: many");
            assertThat(peer.awaitExit(Duration.ofSeconds(10))).isEqualTo(2);
            assertThat(peer.stderr()).contains("bad number for --count");
        }
    }

    @Test
    void eventLinesParse() {
        NrlPeer.Event event = NrlPeer.Event.parse("RX_OBJECT seq=3 info=a%20b.bin size=12 flag");
        assertThat(event.type()).isEqualTo("RX_OBJECT");
        assertThat(event.getLong("seq")).isEqualTo(3);
        assertThat(event.getText("info")).isEqualTo("a b.bin");
        assertThat(event.fields()).containsKey("flag");
        assertThat(event.get("missing")).isNull();
    }
}
