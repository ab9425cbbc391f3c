package org.fjm2.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.fjm2.testkit.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17: a publisher killed with -9 at a seeded random point has lost nothing its sends returned for. Each round
 * a publisher process ({@code storeQuorum=1}) sends PERSISTENT messages on its own topic and prints each send that
 * returned; it is killed after a random number of them, while its next sends are in flight. Afterwards the store's
 * journal holds, for every round, each message up to the last one the publisher saw return, once and in order.
 */
class PublisherCrashTest {

    static final int ROUNDS = 3;
    static final long SEED = Long.getLong("fjm2.test.seed", 23);
    private static final Pattern ACK = Pattern.compile("^ACK (\\d+) \\.$", Pattern.MULTILINE);

    @TempDir
    Path dir;

    @Test
    void aPublisherKilledWithMinus9LosesNothingItsSendsReturnedFor() throws Exception {
        Random random = new Random(SEED);
        System.out.println("PublisherCrashTest seed " + SEED + " (rerun with -Dfjm2.test.seed=N)");
        String group = TestGroups.url("");
        Path data = dir.resolve("store");
        Map<String, Long> returned = new LinkedHashMap<>();
        try (Fjm2Store store = Fjm2Store.start(StoreSettings.of(group, data))) {
            for (int round = 0; round < ROUNDS; round++) {
                String topic = "crash.publisher." + round;
                int killAfter = 50 + random.nextInt(300);
                try (ChildJvm publisher = new ChildJvm("256m", PublisherProcess.class,
                        TestGroups.sameGroup(group, "storeQuorum=1"), topic)) {
                    String line = publisher.awaitLine("ACK " + killAfter + " ", 60);
                    assertThat(line).as("publisher output:%n%s", publisher.output())
                            .isEqualTo("ACK " + killAfter + " .");
                    assertThat(publisher.kill(10)).as("killed").isTrue();
                    long highest = 0;
                    for (Matcher m = ACK.matcher(publisher.output()); m.find(); ) {
                        highest = Math.max(highest, Long.parseLong(m.group(1)));
                    }
                    System.out.printf("round %d: killed -9 after send %d returned (%d had returned by the kill)%n",
                            round, killAfter, highest);
                    returned.put(topic, highest);
                }
            }
        }
        List<StoredMessage> stored = Fjm2Store.readJournal(data);
        for (Map.Entry<String, Long> round : returned.entrySet()) {
            List<Long> sequences = stored.stream().filter(m -> m.topic().equals(round.getKey()))
                    .map(StoredMessage::sequence).toList();
            assertThat(sequences).as("%s: journal order is send order, each message once", round.getKey())
                    .isSorted().doesNotHaveDuplicates();
            assertThat(sequences.size()).as("%s: every send that returned is in the journal", round.getKey())
                    .isGreaterThanOrEqualTo(round.getValue().intValue());
            for (int i = 0; i < round.getValue(); i++) {
                assertThat(sequences.get(i)).as("%s: message %d", round.getKey(), i + 1).isEqualTo(i + 1L);
            }
        }
    }
}
