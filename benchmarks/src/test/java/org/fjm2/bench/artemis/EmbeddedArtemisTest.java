package org.fjm2.bench.artemis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import org.junit.jupiter.api.Test;

class EmbeddedArtemisTest {

    @Test
    void topicSubscriberReceivesEveryMessageInOrder() throws Exception {
        int port = 40000 + (int) (ProcessHandle.current().pid() % 1000);
        try (EmbeddedArtemis broker = EmbeddedArtemis.start(port);
             Connection connection = broker.connectionFactory().createConnection()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic topic = session.createTopic("bench.smoke");
            MessageConsumer consumer = session.createConsumer(topic);
            connection.start();
            MessageProducer producer = session.createProducer(topic);
            producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            for (int i = 0; i < 100; i++) {
                producer.send(session.createTextMessage("m" + i));
            }
            List<String> received = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                TextMessage message = (TextMessage) consumer.receive(10_000);
                assertThat(message).as("message %d within 10 s", i).isNotNull();
                received.add(message.getText());
            }
            assertThat(received).first().isEqualTo("m0");
            assertThat(received).last().isEqualTo("m99");
            assertThat(received).doesNotHaveDuplicates();
        }
    }
}
