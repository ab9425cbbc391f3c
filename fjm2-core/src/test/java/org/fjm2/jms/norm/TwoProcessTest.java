package org.fjm2.jms.norm;

import org.fjm2.testkit.ChildJvm;
import static org.assertj.core.api.Assertions.assertThat;

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
        try (ChildJvm child = new ChildJvm("256m", SubscriberProcess.class, url, "two-process",
                String.valueOf(count))) {
            assertThat(child.awaitLine("READY", 30)).as("child subscribed").startsWith("READY");
            try (Connection c = new Fjm2ConnectionFactory(NormUrls.of(base, "")).createConnection()) {
                Session s = c.createSession();
                MessageProducer p = s.createProducer(s.createTopic("two-process"));
                for (int i = 0; i < count; i++) {
                    TextMessage m = s.createTextMessage("message " + i);
                    m.setIntProperty("seq", i);
                    p.send(m);
                }
                String result = child.awaitLine("DONE", 60);
                assertThat(result).as("child result %s; the end of its output:%n%s", result, child.outputTail(60))
                        .startsWith("DONE " + count + " lost=0 ");
            }
            assertThat(child.awaitExit(30)).isZero();
        }
    }
}
