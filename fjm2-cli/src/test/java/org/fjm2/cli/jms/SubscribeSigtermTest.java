package org.fjm2.cli.jms;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import jakarta.jms.Connection;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import org.fjm2.cli.Fjm2;
import org.fjm2.jms.Fjm2ConnectionFactory;
import org.fjm2.norm.TestGroups;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.testkit.Await;
import org.junit.jupiter.api.Test;

/**
 * {@code fjm2 subscribe} as its own process, left running until SIGTERM (what Ctrl-C and kill do): it still prints
 * its summary, counting exactly the messages it printed.
 */
class SubscribeSigtermTest {

    static final int MESSAGES = 20;

    @Test
    void sigtermPrintsTheSummary() throws Exception {
        NormConfig group = TestGroups.fresh();
        String url = "norm://" + group.group().getHostAddress() + ":" + group.port() + "?interface=lo&grtt=0.002";
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // The launcher's logging (stderr), not the logback-test.xml that test jars on the class path bring (stdout).
        String logging = "-Dlogback.configurationFile=" + Fjm2.class.getResource("/logback.xml");
        Process p = new ProcessBuilder(java, "-Xmx128m", "-Djava.net.preferIPv4Stack=true", logging, "-cp",
                System.getProperty("java.class.path"), Fjm2.class.getName(), "subscribe", "--url", url,
                "--topic", "sig").start();
        Lines out = new Lines(p.getInputStream());
        Lines err = new Lines(p.getErrorStream());
        try {
            assertThat(Await.until(() -> err.contains("subscribed to sig"), Duration.ofSeconds(60)))
                    .as("subscriber ready; stderr: %s", err).isTrue();
            try (Connection c = new Fjm2ConnectionFactory(url).createConnection()) {
                Session s = c.createSession();
                MessageProducer producer = s.createProducer(s.createTopic("sig"));
                for (int i = 0; i < MESSAGES; i++) {
                    producer.send(s.createTextMessage("m" + i));
                }
                assertThat(Await.until(() -> out.count("ID:") == MESSAGES, Duration.ofSeconds(30)))
                        .as("every message printed; stdout: %s stderr: %s", out, err).isTrue();
            }
            // SIGTERM through the handle: Process.destroy() would also close our end of the child's pipes.
            assertThat(p.toHandle().destroy()).isTrue();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("stopped within 30 s").isTrue();
            out.join();
            err.join();
            assertThat(out.last()).as("stdout: %s", out).startsWith("received " + MESSAGES + " messages")
                    .contains("from sig", "lost 0");
            assertThat(err.contains("fjm2 subscribe: stopped by a signal")).as("stderr: %s", err).isTrue();
            assertThat(p.exitValue()).as("JVM exit status on SIGTERM").isEqualTo(143);
        } finally {
            p.destroyForcibly();
        }
    }

    /** A child's output, line by line, read on its own thread. */
    private static final class Lines {
        private final List<String> lines = new ArrayList<>();
        private final Thread reader;

        Lines(InputStream in) {
            reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        synchronized (lines) {
                            lines.add(line);
                        }
                    }
                } catch (IOException e) {
                    // the process ended
                }
            }, "child-output");
            reader.setDaemon(true);
            reader.start();
        }

        boolean contains(String text) {
            synchronized (lines) {
                return lines.stream().anyMatch(line -> line.contains(text));
            }
        }

        long count(String prefix) {
            synchronized (lines) {
                return lines.stream().filter(line -> line.startsWith(prefix)).count();
            }
        }

        String last() {
            synchronized (lines) {
                return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
            }
        }

        void join() throws InterruptedException {
            reader.join(10_000);
        }

        @Override
        public String toString() {
            synchronized (lines) {
                return String.join("\n", lines);
            }
        }
    }
}
