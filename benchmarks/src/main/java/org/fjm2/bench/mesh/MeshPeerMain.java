package org.fjm2.bench.mesh;

import java.util.Locale;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import org.fjm2.jms.Fjm2ConnectionFactory;

/**
 * A JMS end of {@code fjm2 bench mesh}, in its own JVM inside a LAN's namespace:
 * <ul>
 *   <li>{@code pub URL COUNT SIZE}: prints READY, publishes COUNT NON_PERSISTENT BytesMessages of SIZE bytes (long
 *       property {@code seq}) to topic {@code mesh} as fast as the provider's flow control lets {@code send} return,
 *       closes the connection (which waits for the last acknowledgements) and prints
 *       {@code SENT n=N seconds=S blocked_s=B} (B: time spent in send() calls that took over a millisecond).</li>
 *   <li>{@code sub URL COUNT IDLE_S}: prints READY, receives until COUNT messages arrived or nothing came for IDLE_S
 *       seconds after the first one, and prints {@code RESULT received=N rate=R gaps=G duplicates=D lost=L seconds=S} (R: messages/s
 *       between the first and the last message; lost: messages reported lost by the provider).</li>
 * </ul>
 */
public final class MeshPeerMain {

    /** Topic of the scenario. */
    static final String TOPIC = "mesh";
    /** Longest wait for the first message (the publisher starts once every subscriber and tunnel is ready). */
    static final long FIRST_MESSAGE_TIMEOUT_MILLIS = 180_000;

    private MeshPeerMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("pub")) {
            publish(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]));
        } else {
            subscribe(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]));
        }
        System.exit(0);
    }

    private static void publish(String url, int count, int size) throws Exception {
        long blockedNanos = 0;
        long t0;
        try (Connection c = new Fjm2ConnectionFactory(url).createConnection()) {
            Session s = c.createSession();
            MessageProducer p = s.createProducer(s.createTopic(TOPIC));
            p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            byte[] body = new byte[size];
            System.out.println("READY publisher");
            t0 = System.nanoTime();
            for (int i = 0; i < count; i++) {
                BytesMessage m = s.createBytesMessage();
                m.writeBytes(body);
                m.setLongProperty("seq", i);
                long before = System.nanoTime();
                p.send(m);
                long took = System.nanoTime() - before;
                if (took > 1_000_000) {
                    blockedNanos += took;
                }
            }
        }
        System.out.printf(Locale.ROOT, "SENT n=%d seconds=%.2f blocked_s=%.2f%n", count, (System.nanoTime() - t0) / 1e9,
                blockedNanos / 1e9);
    }

    private static void subscribe(String url, int count, int idleSeconds) throws Exception {
        long received = 0;
        long gaps = 0;
        long duplicates = 0;
        long next = 0;
        long first = 0;
        long last = 0;
        int[] lost = {0};
        try (Connection c = new Fjm2ConnectionFactory(url).createConnection()) {
            c.setExceptionListener(e -> {
                lost[0]++;
                System.out.println("REPORTED " + e.getMessage());
            });
            Session s = c.createSession(false, Session.DUPS_OK_ACKNOWLEDGE);
            MessageConsumer consumer = s.createConsumer(s.createTopic(TOPIC));
            c.start();
            System.out.println("READY subscriber");
            while (received < count) {
                BytesMessage m = (BytesMessage) consumer.receive(received == 0 ? FIRST_MESSAGE_TIMEOUT_MILLIS
                        : idleSeconds * 1000L);
                if (m == null) {
                    break;
                }
                last = System.nanoTime();
                if (received++ == 0) {
                    first = last;
                }
                long seq = m.getLongProperty("seq");
                if (seq < next) {
                    duplicates++;
                } else {
                    gaps += seq - next;
                    next = seq + 1;
                }
            }
        }
        double seconds = (last - first) / 1e9;
        System.out.printf(Locale.ROOT, "RESULT received=%d rate=%.0f gaps=%d duplicates=%d lost=%d seconds=%.2f%n",
                received, received > 1 && seconds > 0 ? (received - 1) / seconds : 0, gaps, duplicates, lost[0],
                seconds);
    }
}
