package org.fjm2.bench.jms;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;

/**
 * The subscriber side of {@code fjm2 bench throughput} for JMS, in its own JVM: {@code URL TOPIC N} opens N
 * connections (one non-durable DUPS_OK topic subscriber each, a MessageListener that only checks the {@code seq}
 * property) and prints READY. Then it answers the commands of {@link SubscriberCommands}; the counters after DRAINED
 * are FJM2's own connection counters summed since the start ({@link Fjm2Stats}), if any. End of input closes the
 * connections and exits.
 */
public final class ThroughputSubscribersMain {

    private ThroughputSubscribersMain() {
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        String topic = args[1];
        int n = Integer.parseInt(args[2]);
        SubscriberCommands commands = new SubscriberCommands(n, Fjm2Stats::summary);
        ConnectionFactory factory = ConnectionFactories.forUrl(url);
        List<Connection> connections = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                SequenceCheck check = commands.check(i);
                DeliveryWindow window = commands.window(i);
                Connection c = factory.createConnection();
                connections.add(c);
                Session s = c.createSession(false, Session.DUPS_OK_ACKNOWLEDGE);
                MessageConsumer consumer = s.createConsumer(s.createTopic(topic));
                consumer.setMessageListener(m -> {
                    try {
                        check.record(m.getLongProperty("seq"));
                        window.delivered();
                    } catch (jakarta.jms.JMSException e) {
                        throw new IllegalStateException(e);
                    }
                });
                c.start();
            }
            System.out.println("READY");
            commands.serve(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)));
        } catch (Exception e) {
            System.out.println("FAIL " + e);
            throw e;
        } finally {
            for (Connection c : connections) {
                c.close();
            }
        }
    }
}
