package org.fjm2.cli.jms;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.InvalidSelectorException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.fjm2.jms.ConsumerOverflowException;
import org.fjm2.jms.MessagesLostException;
import org.fjm2.util.Quantities;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/**
 * {@code fjm2 subscribe}: prints one line per message received on a topic, or with {@code --quiet} a summary
 * (messages, msg/s, MB/s, messages lost). Stops after {@code --count} messages, or after {@code --timeout}
 * ({@code --idle-exit}) without a message. Stopped by a signal (SIGTERM, Ctrl-C), it still prints the summary. With
 * {@code --client-id} and {@code --durable} it is a durable subscriber kept by a store ({@code fjm2 store}): what
 * was published while it was away comes first; what it printed is acknowledged (AUTO_ACKNOWLEDGE). With
 * {@code --shared} it is one member of a shared subscription: the subscribers of that name share the messages out.
 */
@Command(name = "subscribe", mixinStandardHelpOptions = true,
        description = "Subscribe to a topic over FJM2 and print what arrives.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done (count reached, or silence for --timeout without --count)",
                "1:failed, or --timeout passed before --count messages", "2:bad arguments",
                "3:done, but messages were lost (reported by the transport or dropped by a full queue)"})
public final class SubscribeCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(SubscribeCommand.class);
    static final int EXIT_TIMED_OUT = 1;
    static final int EXIT_LOST = 3;
    private static final int MAX_TEXT_SHOWN = 80;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--url", required = true, description = "connection URL, e.g. norm://239.255.0.1:6003?interface=lo")
    String url;

    @Option(names = "--topic", required = true, description = "topic name")
    String topic;

    @Option(names = "--count", defaultValue = "0",
            description = "stop after this many messages, 0 = no limit (default: ${DEFAULT-VALUE})")
    long count;

    @Option(names = "--selector", description = "JMS message selector, e.g. \"seq > 10\"")
    String selector;

    @Option(names = "--quiet", description = "print only the summary, not one line per message")
    boolean quiet;

    @Option(names = {"--timeout", "--idle-exit"}, paramLabel = "DURATION", defaultValue = "0",
            description = "stop after this long without a message (10s, 500ms; a bare number is seconds), 0 = wait"
                    + " for ever (default: ${DEFAULT-VALUE})")
    String timeout;

    @Option(names = "--client-id", paramLabel = "ID",
            description = "the connection's JMS client id (a durable subscription belongs to it)")
    String clientId;

    @Option(names = "--durable", paramLabel = "NAME", arity = "0..1", fallbackValue = "",
            description = "subscribe durably under this name (needs --client-id and a store on the group, "
                    + "fjm2 store): messages published while away are replayed on return, then live ones. With "
                    + "--shared NAME, no name of its own: the shared subscription is durable (a store keeps what no "
                    + "member took; --client-id optional)")
    String durable;

    @Option(names = "--shared", paramLabel = "NAME",
            description = "be one member of the shared subscription of this name (and --client-id, if given): the"
                    + " subscribers of the name, in any process, each get a disjoint share of the messages; one that"
                    + " stops leaves what it had not printed to the others")
    String shared;

    @Override
    public Integer call() throws JMSException {
        if (count < 0) {
            throw new IllegalArgumentException("--count must be >= 0, got " + count);
        }
        if (shared != null && shared.isEmpty()) {
            throw new IllegalArgumentException("--shared: the subscription name must not be empty");
        }
        boolean sharedDurable = shared != null && durable != null;
        if (sharedDurable && !durable.isEmpty() && !durable.equals(shared)) {
            throw new IllegalArgumentException("--shared " + shared + " --durable " + durable + ": one subscription "
                    + "has one name; for a shared durable subscription give it once: --shared NAME --durable");
        }
        if (durable != null && !sharedDurable && durable.isEmpty()) {
            throw new IllegalArgumentException("--durable: the subscription name must not be empty");
        }
        if (durable != null && !sharedDurable && clientId == null) {
            throw new IllegalArgumentException("--durable needs --client-id: a durable subscription belongs to a "
                    + "client id (the same one finds it again)");
        }
        long timeoutMillis = Quantities.duration("--timeout", timeout).toMillis();
        PrintWriter out = spec.commandLine().getOut();
        ReceiveTally tally = new ReceiveTally(topic);
        try (Connection connection = ToolSupport.factory(url).createConnection();
             SummaryOnSignal onSignal = new SummaryOnSignal(tally, out, spec.commandLine().getErr())) {
            if (clientId != null) {
                connection.setClientID(clientId);
            }
            connection.setExceptionListener(e -> {
                if (e instanceof MessagesLostException m) {
                    tally.lost(m.lostMessages());
                } else if (e instanceof ConsumerOverflowException o) {
                    tally.lost(o.droppedMessages());
                }
                LOG.warn(e.getMessage());
            });
            Session session = connection.createSession();
            MessageConsumer consumer;
            try {
                consumer = sharedDurable
                        ? session.createSharedDurableConsumer(session.createTopic(topic), shared, selector)
                        : shared != null ? session.createSharedConsumer(session.createTopic(topic), shared, selector)
                        : durable == null ? session.createConsumer(session.createTopic(topic), selector)
                        : session.createDurableConsumer(session.createTopic(topic), durable, selector, false);
            } catch (InvalidSelectorException e) {
                throw new IllegalArgumentException("--selector: " + e.getMessage(), e);
            }
            connection.start();
            LOG.info("subscribed to {}{} on {} (a signal or Ctrl-C prints the summary and stops)", topic,
                    shared != null ? " (a member of shared " + (sharedDurable ? "durable " : "") + "subscription '"
                            + shared + "')"
                    : durable == null ? "" : " (durable subscription '" + durable + "' of client id '" + clientId + "')",
                    url);
            long nextProgress = 0;
            while (count == 0 || tally.received() < count) {
                Message m = timeoutMillis > 0 ? consumer.receive(timeoutMillis) : consumer.receive();
                if (m == null) {
                    break;
                }
                long now = System.nanoTime();
                long size = bodySize(m);
                tally.received(size, now);
                if (!quiet) {
                    out.println(describe(m, size));
                } else if (tally.received() == 1) {
                    nextProgress = now + ToolSupport.PROGRESS_INTERVAL_NANOS;
                } else if (now >= nextProgress) {
                    LOG.info("received {} messages ({} msg/s)", tally.received(),
                            Math.round(tally.messagesPerSecond(now)));
                    nextProgress = now + ToolSupport.PROGRESS_INTERVAL_NANOS;
                }
            }
            tally.printSummaryOnce(out);
            if (count > 0 && tally.received() < count) {
                spec.commandLine().getErr().printf("fjm2 subscribe: timed out after %.1f s of silence with %d of %d"
                        + " messages%n", timeoutMillis / 1e3, tally.received(), count);
                return EXIT_TIMED_OUT;
            }
            return tally.anyLost() ? EXIT_LOST : 0;
        }
    }

    private static long bodySize(Message m) throws JMSException {
        if (m instanceof BytesMessage b) {
            return b.getBodyLength();
        }
        if (m instanceof TextMessage t && t.getText() != null) {
            return t.getText().length();
        }
        return 0;
    }

    private static String describe(Message m, long size) throws JMSException {
        StringBuilder line = new StringBuilder();
        line.append(m.getJMSMessageID()).append(" priority=").append(m.getJMSPriority());
        if (m.propertyExists("seq")) {
            line.append(" seq=").append(m.getObjectProperty("seq"));
        }
        line.append(" size=").append(size);
        if (m instanceof TextMessage t && t.getText() != null) {
            String text = t.getText();
            line.append(" text=").append(text.length() > MAX_TEXT_SHOWN ? text.substring(0, MAX_TEXT_SHOWN) + "..." : text);
        }
        if (m.getJMSRedelivered()) {
            line.append(" redelivered");
        }
        return line.toString();
    }
}
