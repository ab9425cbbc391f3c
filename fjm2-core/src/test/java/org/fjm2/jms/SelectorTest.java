package org.fjm2.jms;

import jakarta.jms.Connection;
import jakarta.jms.InvalidSelectorException;
import jakarta.jms.InvalidSelectorRuntimeException;
import jakarta.jms.JMSContext;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SelectorTest {

    @Test
    void consumersSeeOnlyWhatTheirSelectorMatches() throws Exception {
        String url = InMem.newUrl();
        try (Connection pub = InMem.connect(url); Connection sub = InMem.connect(url)) {
            Session ps = pub.createSession();
            Session ss = sub.createSession();
            Topic topic = ps.createTopic("orders");
            MessageConsumer big = ss.createConsumer(topic, "amount > 100 AND region = 'EU'");
            MessageConsumer like = ss.createConsumer(topic, "sku LIKE 'A%' OR JMSType = 'special'");
            MessageConsumer prio = ss.createConsumer(topic, "JMSPriority >= 7");
            MessageConsumer in = ss.createConsumer(topic, "region IN ('US', 'JP') AND amount BETWEEN 1 AND 50");
            MessageConsumer missing = ss.createConsumer(topic, "flag IS NULL");
            assertThat(big.getMessageSelector()).isEqualTo("amount > 100 AND region = 'EU'");
            MessageProducer p = ps.createProducer(topic);
            send(ps, p, "1", 150, "EU", "A1", null, 4, true);
            send(ps, p, "2", 150, "US", "B1", null, 8, true);
            send(ps, p, "3", 20, "JP", "C1", "special", 4, false);
            send(ps, p, "4", 500, "EU", "B2", null, 9, true);
            assertThat(ids(big)).containsExactly("1", "4");
            assertThat(ids(like)).containsExactly("1", "3");
            assertThat(ids(prio)).containsExactly("2", "4");
            assertThat(ids(in)).containsExactly("3");
            assertThat(ids(missing)).containsExactly("3");
        }
    }

    private static void send(Session s, MessageProducer p, String id, int amount, String region, String sku,
                             String type, int priority, boolean flag) throws Exception {
        TextMessage m = s.createTextMessage(id);
        m.setIntProperty("amount", amount);
        m.setStringProperty("region", region);
        m.setStringProperty("sku", sku);
        if (flag) {
            m.setBooleanProperty("flag", true);
        }
        m.setJMSType(type);
        p.send(m, jakarta.jms.DeliveryMode.NON_PERSISTENT, priority, 0);
    }

    private static List<String> ids(MessageConsumer c) throws Exception {
        List<String> ids = new ArrayList<>();
        for (Message m; (m = c.receive(500)) != null; ) {
            ids.add(((TextMessage) m).getText());
        }
        ids.sort(String::compareTo);
        return ids;
    }

    @Test
    void invalidSelectorsAreRefused() throws Exception {
        String url = InMem.newUrl();
        try (Connection c = InMem.connect(url)) {
            Session s = c.createSession();
            Topic t = s.createTopic("x");
            assertThatThrownBy(() -> s.createConsumer(t, "amount >>> 3")).isInstanceOf(InvalidSelectorException.class)
                    .hasMessageContaining("amount >>> 3");
            assertThatThrownBy(() -> s.createConsumer(t, "region = 'EU")).isInstanceOf(InvalidSelectorException.class);
        }
        try (JMSContext context = new Fjm2ConnectionFactory(url).createContext()) {
            assertThatThrownBy(() -> context.createConsumer(context.createTopic("x"), "a ="))
                    .isInstanceOf(InvalidSelectorRuntimeException.class);
        }
    }
}
