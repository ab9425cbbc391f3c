package org.fjm2.cli.jms;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import org.fjm2.jms.Fjm2ConnectionFactory;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class ToolTest {

    private static final AtomicInteger GROUPS = new AtomicInteger();

    private record Run(int exitCode, String out, String err) {
    }

    private static Run run(Object command, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(command);
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void publishSendsNumberedMessages() throws Exception {
        String url = "inmem://tool-" + GROUPS.incrementAndGet();
        try (Connection c = new Fjm2ConnectionFactory(url).createConnection()) {
            c.start();
            Session s = c.createSession();
            MessageConsumer consumer = s.createConsumer(s.createTopic("tool.t"));
            Run run = run(new PublishCommand(), "--url", url, "--topic", "tool.t", "--count", "20", "--size", "64",
                    "--priority", "7", "--rate", "2000");
            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.out()).contains("sent 20 messages").contains("msg/s");
            for (int i = 0; i < 20; i++) {
                Message m = consumer.receive(5000);
                assertThat(m.getLongProperty("seq")).isEqualTo(i);
                assertThat(m.getJMSPriority()).isEqualTo(7);
                assertThat(m.getBody(byte[].class)).hasSize(64);
            }
        }
    }

    @Test
    void publishTakesASizeWithUnits() throws Exception {
        String url = "inmem://tool-" + GROUPS.incrementAndGet();
        try (Connection c = new Fjm2ConnectionFactory(url).createConnection()) {
            c.start();
            Session s = c.createSession();
            MessageConsumer consumer = s.createConsumer(s.createTopic("tool.k"));
            Run run = run(new PublishCommand(), "--url", url, "--topic", "tool.k", "--count", "2", "--size", "1k");
            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(consumer.receive(5000).getBody(byte[].class)).hasSize(1024);
        }
    }

    @Test
    void subscribePrintsLinesOrASummaryAndStopsAtCount() throws Exception {
        String url = "inmem://tool-" + GROUPS.incrementAndGet();
        try (Connection c = new Fjm2ConnectionFactory(url).createConnection()) {
            Session s = c.createSession();
            Topic topic = s.createTopic("tool.s");
            MessageProducer producer = s.createProducer(topic);
            CompletableFuture<Run> verbose = CompletableFuture.supplyAsync(() -> run(new SubscribeCommand(),
                    "--url", url, "--topic", "tool.s", "--count", "5", "--timeout", "30", "--selector", "odd = TRUE"));
            CompletableFuture<Run> quiet = CompletableFuture.supplyAsync(() -> run(new SubscribeCommand(),
                    "--url", url, "--topic", "tool.s", "--count", "50", "--quiet", "--timeout", "30"));
            // The subscribers join at some point: publish until both are done (non-durable subscriptions).
            AtomicBoolean both = new AtomicBoolean();
            for (long i = 0; !both.get() && i < 1_000_000; i++) {
                Message m = s.createTextMessage("m" + i);
                m.setLongProperty("seq", i);
                m.setBooleanProperty("odd", i % 2 == 1);
                producer.send(m);
                both.set(verbose.isDone() && quiet.isDone());
                if (i % 100 == 99) {
                    Thread.sleep(1); // give the subscriber threads a turn; correctness does not depend on it
                }
            }
            Run v = verbose.get(30, TimeUnit.SECONDS);
            Run q = quiet.get(30, TimeUnit.SECONDS);
            assertThat(v.exitCode()).as(v.err()).isZero();
            String[] lines = v.out().split("\n");
            assertThat(lines).hasSize(6);
            for (int i = 0; i < 5; i++) {
                assertThat(lines[i]).startsWith("ID:").contains("text=m");
                long seq = Long.parseLong(lines[i].replaceAll(".* seq=(\\d+).*", "$1"));
                assertThat(seq % 2).as("selector odd = TRUE").isEqualTo(1);
            }
            assertThat(lines[5]).startsWith("received 5 messages");
            assertThat(q.exitCode()).as(q.err()).isZero();
            assertThat(q.out().trim()).startsWith("received 50 messages").contains("msg/s").contains("MB/s")
                    .contains("lost 0");
        }
    }

    @Test
    void subscribersOfASharedSubscriptionShareTheMessagesOut() throws Exception {
        String url = "inmem://tool-" + GROUPS.incrementAndGet();
        int count = 1_000;
        try (Connection c = new Fjm2ConnectionFactory(url).createConnection()) {
            Session s = c.createSession();
            MessageProducer producer = s.createProducer(s.createTopic("tool.shared"));
            List<CompletableFuture<Run>> members = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                members.add(CompletableFuture.supplyAsync(() -> run(new SubscribeCommand(), "--url", url, "--topic",
                        "tool.shared", "--shared", "pool", "--quiet", "--idle-exit", "3")));
            }
            Thread.sleep(1_000);   // both subscribed and active (a member takes its share 300 ms after joining)
            for (int i = 0; i < count; i++) {
                producer.send(s.createTextMessage("m" + i));
            }
            long total = 0;
            for (CompletableFuture<Run> member : members) {
                Run r = member.get(30, TimeUnit.SECONDS);
                assertThat(r.exitCode()).as(r.err()).isZero();
                long received = Long.parseLong(r.out().trim().replaceAll("^received (\\d+) messages.*", "$1"));
                assertThat(received).as("a member's share").isBetween(1L, (long) count - 1);
                total += received;
            }
            assertThat(total).as("every message to one member").isEqualTo(count);
        }
        org.fjm2.cli.CliRun both = org.fjm2.cli.CliRun.of("subscribe", "--url", url, "--topic", "t", "--shared",
                "a", "--durable", "b", "--client-id", "c");
        assertThat(both.exit()).isEqualTo(2);
        assertThat(both.err()).contains("one subscription has one name");
    }

    @Test
    void subscribeTimesOutWithExitCodeOne() {
        Run run = run(new SubscribeCommand(), "--url", "inmem://tool-" + GROUPS.incrementAndGet(), "--topic", "none",
                "--count", "3", "--timeout", "0.2", "--quiet");
        assertThat(run.exitCode()).isEqualTo(SubscribeCommand.EXIT_TIMED_OUT);
        assertThat(run.err()).contains("timed out").contains("0 of 3");
    }

    @Test
    void badInputIsRefused() {
        Run badUrl = run(new PublishCommand(), "--url", "inmem://x?bogus=1", "--topic", "t");
        assertThat(badUrl.exitCode()).isNotZero();
        assertThat(badUrl.err()).contains("bogus");
        Run badPriority = run(new PublishCommand(), "--url", "inmem://x", "--topic", "t", "--priority", "12");
        assertThat(badPriority.exitCode()).isNotZero();
        assertThat(badPriority.err()).contains("--priority");
        Run missing = run(new SubscribeCommand(), "--topic", "t");
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.err()).contains("--url");
        Run badSelector = run(new SubscribeCommand(), "--url", "inmem://x", "--topic", "t", "--selector", "a =");
        assertThat(badSelector.exitCode()).isNotZero();
        assertThat(badSelector.err()).contains("--selector");
        assertThat(run(new SubscribeCommand(), "--help").out()).contains("--quiet").contains("Exit codes");
    }
}
