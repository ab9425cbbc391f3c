package org.fjm2.tunnel;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.CRC32;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import org.fjm2.jms.Fjm2ConnectionFactory;

/**
 * A JMS publisher or subscriber over FJM2 for tests in network namespaces:
 * {@code send GROUP:PORT IF PUBLISHER COUNT SIZE RATE} publishes COUNT BytesMessages to topic "tunnel" (int
 * properties publisher and seq, long property crc of the body);
 * {@code recv GROUP:PORT IF COUNT TIMEOUT_S} checks that every message arrives intact, in order per publisher and
 * once, and prints {@code RESULT complete=B received=N inorder=N corrupt=N lost=N senders=N}.
 */
public final class JmsPeerMain {

    private JmsPeerMain() {
    }

    public static void main(String[] args) throws Exception {
        // receiverSilence as long as the receiver timeout: these tests measure relaying, not dead-receiver detection
        // (a live subscriber three daemons away on a loaded machine can be quiet longer than the default 1 s).
        String url = "norm://" + args[1] + "?interface=" + args[2] + "&grtt=0.005&receiverSilence=6s";
        if (args[0].equals("send")) {
            send(url + "&rate=" + args[6], Integer.parseInt(args[3]), Integer.parseInt(args[4]),
                    Integer.parseInt(args[5]));
        } else {
            receive(url + "&consumerQueueMessages=1000000", Integer.parseInt(args[3]), Integer.parseInt(args[4]));
        }
        System.exit(0);
    }

    private static void send(String url, int publisher, int count, int size) throws Exception {
        try (Connection c = new Fjm2ConnectionFactory(url).createConnection()) {
            Session s = c.createSession();
            MessageProducer p = s.createProducer(s.createTopic("tunnel"));
            System.out.println("READY publisher " + publisher);
            SplittableRandom random = new SplittableRandom(publisher);
            for (int i = 0; i < count; i++) {
                byte[] body = new byte[size];
                random.nextBytes(body);
                CRC32 crc = new CRC32();
                crc.update(body);
                BytesMessage m = s.createBytesMessage();
                m.writeBytes(body);
                m.setIntProperty("publisher", publisher);
                m.setIntProperty("seq", i);
                m.setLongProperty("crc", crc.getValue());
                p.send(m);
            }
            System.out.println("SENT " + count);
        }
        // close() waited for the last messages to be flushed and acknowledged
    }

    private static void receive(String url, int count, int timeoutSeconds) throws Exception {
        int received = 0;
        int inOrder = 0;
        int corrupt = 0;
        int[] lost = {0};
        Map<Integer, Integer> next = new HashMap<>();
        try (Connection c = new Fjm2ConnectionFactory(url).createConnection()) {
            c.setExceptionListener(e -> {
                lost[0]++;
                System.out.println("REPORTED " + e.getMessage());
            });
            Session s = c.createSession();
            MessageConsumer consumer = s.createConsumer(s.createTopic("tunnel"));
            c.start();
            System.out.println("READY subscriber");
            long deadline = System.currentTimeMillis() + timeoutSeconds * 1000L;
            while (received < count && System.currentTimeMillis() < deadline) {
                BytesMessage m = (BytesMessage) consumer.receive(1000);
                if (m == null) {
                    continue;
                }
                received++;
                int publisher = m.getIntProperty("publisher");
                int seq = m.getIntProperty("seq");
                if (next.getOrDefault(publisher, 0) == seq) {
                    inOrder++;
                }
                next.put(publisher, seq + 1);
                byte[] body = new byte[(int) m.getBodyLength()];
                m.readBytes(body);
                CRC32 crc = new CRC32();
                crc.update(body);
                if (crc.getValue() != m.getLongProperty("crc")) {
                    corrupt++;
                }
            }
        }
        System.out.printf("RESULT complete=%b received=%d inorder=%d corrupt=%d lost=%d senders=%d%n",
                received == count && inOrder == count && corrupt == 0, received, inOrder, corrupt, lost[0],
                next.size());
    }
}
