package org.fjm2.jms;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import jakarta.jms.JMSException;
import org.fjm2.jms.JmsSeedWriter.Record;
import org.fjm2.norm.fuzz.FuzzInput;
import org.fjm2.norm.fuzz.FuzzInputWriter;

/**
 * Writes the seed corpus of {@link InboundFuzzTest} (run once by hand, files checked in):
 * {@code java -cp <fjm2-core test classpath> org.fjm2.jms.JmsCorpusGenerator fjm2-core/src/test/resources}.
 * Structured seeds are programs for {@link JmsBatchSynth}; raw seeds are the same events with the batches it built.
 */
final class JmsCorpusGenerator {

    private JmsCorpusGenerator() {
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]).resolve("org/fjm2/jms/InboundFuzzTestInputs");
        seed(root, "text_matching_every_selector", new JmsSeedWriter()
                .batch(0, 1, new Record(1, 4, 0, 1, 0, 0).plain().redAndHeavy().text("hello")));
        seed(root, "every_body_kind", new JmsSeedWriter()
                .batch(0, 0, new Record(0, 1, 0, 1, 0, 0).plain().noProperties().emptyBody(),
                        new Record(1, 1, 0, 2, 0, 0).plain().noProperties().text("t"),
                        new Record(2, 1, 0, 3, 0, 0).plain().noProperties().bytes(new byte[] {1, 2, 3, 4}),
                        new Record(3, 1, 0, 4, 0, 0).plain().noProperties().everyValueType(true),
                        new Record(4, 1, 0, 5, 0, 0).plain().noProperties().everyValueType(false),
                        new Record(5, 1, 0, 6, 0, 0).plain().noProperties().objectList()));
        seed(root, "every_header_option_and_property_type", new JmsSeedWriter()
                .batch(1, 0, new Record(1, 7, 2, 1, 1, 2).allOptions("x").everyPropertyType().text("opts")));
        seed(root, "gap_duplicate_and_loss", new JmsSeedWriter()
                .batch(0, 1, new Record(1, 4, 0, 1, 0, 0).plain().noProperties().text("1"))
                .batch(0, 1, new Record(1, 4, 0, 5, 0, 0).plain().noProperties().text("5"))
                .batch(0, 1, new Record(1, 4, 0, 5, 0, 0).plain().noProperties().text("5 again"))
                .lost(0, 3)
                .batch(0, 1, new Record(1, 4, 0, 9, 0, 0).plain().noProperties().text("9"))
                .gone(0));
        seed(root, "loss_before_first_batch_then_stream_from_the_future", new JmsSeedWriter()
                .lost(2, 2)
                .batch(2, 2, new Record(1, 9, 1, 7, 1, 0).plain().noProperties().text("seven"))
                .gone(2)
                .lost(3, 1)
                .gone(3));
        seed(root, "expired_and_unsubscribed", new JmsSeedWriter()
                .batch(0, 0, new Record(1, 4, 0, 1, 0, 1).plain().noProperties().text("expired"),
                        new Record(1, 4, 0, 2, 2, 0).plain().noProperties().text("nobody listens")));
        seed(root, "record_length_corrupted", new JmsSeedWriter()
                .corruptedBatch(0, 19, 0xFF, new Record(1, 4, 0, 1, 0, 0).plain().noProperties().text("x")));
        seed(root, "topic_length_corrupted", new JmsSeedWriter()
                .corruptedBatch(0, 16 + 45, 0xF0, new Record(2, 4, 0, 1, 0, 0).plain().noProperties()
                        .bytes(new byte[40])));
        seed(root, "property_count_corrupted", new JmsSeedWriter()
                .corruptedBatch(1, 16 + 46 + 6 + 3, 0x7F, new Record(1, 4, 0, 1, 1, 0).plain()
                        .everyPropertyType().text("p")));
        FuzzInputWriter garbage = new FuzzInputWriter();
        garbage.u8(0).chunk(new byte[] {0x46, 0x4A, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xFF, (byte) 0xFF,
                (byte) 0xFF, (byte) 0xFF});
        garbage.u8(4).chunk(new byte[] {0x46, 0x4A, 2, 0});
        garbage.u8(8).chunk(new byte[0]);
        write(root.resolve("rawObjects"), "negative_count_wrong_version_empty", garbage.toByteArray());
    }

    /** Writes the structured seed and its raw twin (the same events with the batches the synth built). */
    private static void seed(Path root, String name, JmsSeedWriter writer) throws IOException, JMSException {
        byte[] program = writer.toByteArray();
        write(root.resolve("structuredBatches"), name, program);
        FuzzInput in = new FuzzInput(program);
        FuzzInputWriter raw = new FuzzInputWriter();
        while (in.hasMore()) {
            int op = in.u8();
            raw.u8(op);
            int action = op & 3;
            if (action <= 1) {
                raw.chunk(JmsBatchSynth.batch(in));
            } else if (action == 2) {
                raw.u8(in.u8());
            }
        }
        write(root.resolve("rawObjects"), name, raw.toByteArray());
    }

    private static void write(Path dir, String name, byte[] content) throws IOException {
        Files.createDirectories(dir);
        Files.write(dir.resolve(name), content);
    }
}
