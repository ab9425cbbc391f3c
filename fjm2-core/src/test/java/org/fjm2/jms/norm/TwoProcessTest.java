package org.fjm2.jms.norm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import jakarta.jms.Connection;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.fjm2.jms.Fjm2ConnectionFactory;
import org.junit.jupiter.api.Test;

/** Publisher in this JVM, subscriber in another JVM process, on the same host over loopback multicast. */
class TwoProcessTest {

    @Test
    void subscriberInAnotherProcessGetsEveryMessageInOrder() throws Exception {
        String base = NormUrls.fresh();
        String url = NormUrls.of(base, "rxLoss=0.05&lossSeed=11");
        int count = 20_000;
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-Xmx256m", "-Djava.net.preferIPv4Stack=true", "-cp",
                System.getProperty("java.class.path"), SubscriberProcess.class.getName(), url, "two-process",
                String.valueOf(count)).redirectErrorStream(true).start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    lines.add(line);
                }
            } catch (java.io.IOException e) {
                lines.add("FAIL " + e);
            }
        });
        reader.setDaemon(true);
        reader.start();
        try {
            assertThat(awaitLine(lines, "READY", 30)).as("child subscribed").startsWith("READY");
            try (Connection c = new Fjm2ConnectionFactory(NormUrls.of(base, "")).createConnection()) {
                Session s = c.createSession();
                MessageProducer p = s.createProducer(s.createTopic("two-process"));
                for (int i = 0; i < count; i++) {
                    TextMessage m = s.createTextMessage("message " + i);
                    m.setIntProperty("seq", i);
                    p.send(m);
                }
                String result = awaitLine(lines, "DONE", 60);
                assertThat(result).as("child result").isEqualTo("DONE " + count);
            }
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(child.exitValue()).isZero();
        } finally {
            child.destroyForcibly();
        }
    }

    /** The first line starting with {@code prefix} (or FAIL) within the timeout; other lines are skipped. */
    private static String awaitLine(BlockingQueue<String> lines, String prefix, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            String line = lines.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (line == null) {
                break;
            }
            if (line.startsWith(prefix) || line.startsWith("FAIL")) {
                return line;
            }
        }
        return "no " + prefix + " within " + seconds + " s";
    }
}
