package org.fjm2.cli.jms;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import org.fjm2.util.Quantities;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code fjm2 publish}: publishes messages to a topic, optionally at a fixed rate, and prints a summary line.
 * Each message carries an int property {@code seq} (0, 1, 2...) so that a subscriber can check order.
 */
@Command(name = "publish", mixinStandardHelpOptions = true,
        description = "Publish messages to a topic over FJM2 (a BytesMessage of --size bytes, or --text).",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:all messages sent", "1:sending failed", "2:bad arguments"})
public final class PublishCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(PublishCommand.class);
    /** Largest --size: one body array, sent as one BytesMessage. */
    static final long MAX_SIZE = 1L << 30;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--url", required = true, description = "connection URL, e.g. norm://239.255.0.1:6003?interface=lo")
    String url;

    @Option(names = "--topic", required = true, description = "topic name")
    String topic;

    @Option(names = "--count", defaultValue = "1", description = "messages to send (default: ${DEFAULT-VALUE})")
    long count;

    @Option(names = "--size", paramLabel = "BYTES", defaultValue = "100",
            description = "body size (100, 64k, 1MiB) (default: ${DEFAULT-VALUE})")
    String sizeText;

    /** --size, parsed. */
    private int size;

    @Option(names = "--rate", defaultValue = "0",
            description = "messages per second, 0 = as fast as the transport allows (default: ${DEFAULT-VALUE})")
    double rate;

    @Option(names = "--priority", defaultValue = "4", description = "JMS priority 0..9 (default: ${DEFAULT-VALUE})")
    int priority;

    @Option(names = "--text", description = "send this text as a TextMessage instead of --size bytes")
    String text;

    @Option(names = "--non-persistent", description = "send NON_PERSISTENT (no difference in FJM2, kept for JMS tools)")
    boolean nonPersistent;

    @Override
    public Integer call() throws JMSException {
        validate();
        PrintWriter out = spec.commandLine().getOut();
        try (Connection connection = ToolSupport.factory(url).createConnection()) {
            Session session = connection.createSession();
            MessageProducer producer = session.createProducer(session.createTopic(topic));
            producer.setPriority(priority);
            producer.setDeliveryMode(nonPersistent ? DeliveryMode.NON_PERSISTENT : DeliveryMode.PERSISTENT);
            byte[] body = new byte[size];
            for (int i = 0; i < size; i++) {
                body[i] = (byte) ('a' + i % 26);
            }
            long intervalNanos = rate > 0 ? (long) (1e9 / rate) : 0;
            long start = System.nanoTime();
            long nextProgress = start + ToolSupport.PROGRESS_INTERVAL_NANOS;
            long bytes = 0;
            for (long i = 0; i < count; i++) {
                if (intervalNanos > 0) {
                    long due = start + i * intervalNanos;
                    for (long wait; (wait = due - System.nanoTime()) > 0; ) {
                        LockSupport.parkNanos(wait);
                    }
                }
                Message message;
                if (text != null) {
                    message = session.createTextMessage(text);
                    bytes += text.length();
                } else {
                    BytesMessage bytesMessage = session.createBytesMessage();
                    bytesMessage.writeBytes(body);
                    message = bytesMessage;
                    bytes += size;
                }
                message.setLongProperty("seq", i);
                producer.send(message);
                long now = System.nanoTime();
                if (now >= nextProgress) {
                    LOG.info("sent {} of {} messages ({} msg/s)", i + 1, count,
                            Math.round(ToolSupport.perSecond(i + 1, now - start)));
                    nextProgress = now + ToolSupport.PROGRESS_INTERVAL_NANOS;
                }
            }
            long elapsed = System.nanoTime() - start;
            out.printf("sent %d messages (%d bytes of body) to %s in %.3f s: %.0f msg/s, %.2f MB/s%n", count, bytes,
                    topic, elapsed / 1e9, ToolSupport.perSecond(count, elapsed),
                    ToolSupport.megabytesPerSecond(bytes, elapsed));
            out.flush();
        }
        return 0;
    }

    private void validate() {
        if (count < 0) {
            throw new IllegalArgumentException("--count must be >= 0, got " + count);
        }
        long bytes = Quantities.bytes("--size", sizeText);
        if (bytes > MAX_SIZE) {
            throw new IllegalArgumentException("--size must be at most " + Quantities.formatBytes(MAX_SIZE) + ", got "
                    + sizeText);
        }
        size = (int) bytes;
        if (rate < 0 || Double.isNaN(rate)) {
            throw new IllegalArgumentException("--rate must be >= 0, got " + rate);
        }
        if (priority < 0 || priority > 9) {
            throw new IllegalArgumentException("--priority must be 0..9, got " + priority);
        }
        if (topic.isEmpty()) {
            throw new IllegalArgumentException("--topic must not be empty");
        }
    }
}
