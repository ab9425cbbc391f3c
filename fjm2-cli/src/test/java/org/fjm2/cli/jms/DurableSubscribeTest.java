package org.fjm2.cli.jms;

import jakarta.jms.Connection;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import org.fjm2.cli.CliRun;
import org.fjm2.jms.Fjm2ConnectionFactory;
import org.fjm2.store.Fjm2Store;
import org.fjm2.store.StoreSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code fjm2 subscribe --client-id ID --durable NAME} with a store on the group (over NORM on loopback: run in a
 * network namespace), {@code --idle-exit}, and the refusal of {@code --durable} without {@code --client-id}.
 */
class DurableSubscribeTest {

    @TempDir
    Path dir;

    private static CliRun subscribe(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "subscribe";
        System.arraycopy(args, 0, all, 1, args.length);
        return CliRun.of(all);
    }

    @Test
    void aDurableSubscriberGetsWhatWasPublishedWhileItWasAway() throws Exception {
        int n = (int) (ProcessHandle.current().pid() % 200);
        String url = "norm://239.78." + n + ".7:" + (43000 + n) + "?interface=lo&grtt=0.002";
        try (Fjm2Store store = Fjm2Store.start(StoreSettings.of(url, dir.resolve("store")));
             Connection publisher = new Fjm2ConnectionFactory(url + "&storeQuorum=1").createConnection()) {
            CliRun first = subscribe("--url", url, "--topic", "cli.d", "--client-id", "cli", "--durable", "d",
                    "--idle-exit", "0.3", "--quiet");
            assertThat(first.exit()).as(first.err()).isZero();
            assertThat(first.out()).startsWith("received 0 messages");
            Session s = publisher.createSession();
            MessageProducer p = s.createProducer(s.createTopic("cli.d"));
            for (int i = 1; i <= 3; i++) {
                jakarta.jms.TextMessage m = s.createTextMessage("away " + i);
                m.setIntProperty("seq", i);
                p.send(m); // PERSISTENT, on the store's disk when send returns (storeQuorum=1)
            }
            CliRun back = subscribe("--url", url, "--topic", "cli.d", "--client-id", "cli", "--durable", "d",
                    "--idle-exit", "1");
            assertThat(back.exit()).as(back.err()).isZero();
            String[] lines = back.out().split("\n");
            assertThat(Arrays.stream(lines).filter(l -> l.contains("text=away")).map(l -> l.replaceAll(
                    ".* seq=(\\d+).*", "$1")).toList()).containsExactly("1", "2", "3");
            CliRun again = subscribe("--url", url, "--topic", "cli.d", "--client-id", "cli", "--durable", "d",
                    "--idle-exit", "0.5", "--quiet");
            assertThat(again.out()).as("acknowledged: not again").startsWith("received 0 messages");
        }
    }

    @Test
    void aSharedDurableSubscriptionKeepsWhatNoMemberTookWithoutAClientId() throws Exception {
        int n = (int) (ProcessHandle.current().pid() % 200);
        String url = "norm://239.78." + n + ".9:" + (43300 + n) + "?interface=lo&grtt=0.002";
        try (Fjm2Store store = Fjm2Store.start(StoreSettings.of(url, dir.resolve("store")));
             Connection publisher = new Fjm2ConnectionFactory(url + "&storeQuorum=1").createConnection()) {
            CliRun first = subscribe("--url", url, "--topic", "cli.sd", "--shared", "pool", "--durable",
                    "--idle-exit", "0.3", "--quiet");
            assertThat(first.exit()).as(first.err()).isZero();
            Session s = publisher.createSession();
            MessageProducer p = s.createProducer(s.createTopic("cli.sd"));
            for (int i = 1; i <= 10; i++) {
                p.send(s.createTextMessage("away " + i)); // on the store's disk when send returns (storeQuorum=1)
            }
            CliRun back = subscribe("--url", url, "--topic", "cli.sd", "--shared", "pool", "--durable", "pool",
                    "--idle-exit", "1", "--quiet");
            assertThat(back.exit()).as(back.err()).isZero();
            assertThat(back.out()).as("kept while no member was there").startsWith("received 10 messages");
            CliRun again = subscribe("--url", url, "--topic", "cli.sd", "--shared", "pool", "--durable",
                    "--idle-exit", "0.5", "--quiet");
            assertThat(again.out()).as("acknowledged: not again").startsWith("received 0 messages");
        }
    }

    @Test
    void durableNeedsAClientIdAndAStore() {
        CliRun noClientId = subscribe("--url", "inmem://durable-cli", "--topic", "t", "--durable", "d");
        assertThat(noClientId.exit()).isEqualTo(2);
        assertThat(noClientId.err()).contains("--durable needs --client-id");
        CliRun noStore = subscribe("--url", "inmem://durable-cli", "--topic", "t", "--client-id", "c", "--durable", "d");
        assertThat(noStore.exit()).isEqualTo(1);
        assertThat(noStore.err()).contains("no store answered").contains("fjm2 store");
        assertThat(subscribe("--help").out()).contains("--client-id").contains("--durable").contains("--idle-exit");
    }
}
