package org.fjm2.jms;

import jakarta.jms.Connection;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import jakarta.jms.TopicConnection;
import jakarta.jms.TopicRequestor;
import jakarta.jms.TopicSession;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TemporaryTopicTest {

    @Test
    void temporaryTopicsAreUniqueAndOwnedByTheirConnection() throws Exception {
        String url = InMem.newUrl();
        try (Connection a = InMem.connect(url); Connection b = InMem.connect(url)) {
            Session sa = a.createSession();
            Session sb = b.createSession();
            TemporaryTopic t1 = sa.createTemporaryTopic();
            TemporaryTopic t2 = sa.createTemporaryTopic();
            TemporaryTopic t3 = sb.createTemporaryTopic();
            assertThat(t1.getTopicName()).startsWith(Fjm2TemporaryTopic.PREFIX)
                    .contains(((Fjm2Connection) a).nodeIdText());
            assertThat(t1.getTopicName()).isNotEqualTo(t2.getTopicName()).isNotEqualTo(t3.getTopicName());
            assertThatThrownBy(() -> sb.createConsumer(t1)).isInstanceOf(InvalidDestinationException.class)
                    .hasMessageContaining("another connection");
            MessageConsumer own = sa.createConsumer(t1);
            sb.createProducer(t1).send(sb.createTextMessage("to the owner"));
            assertThat(((TextMessage) own.receive(5000)).getText()).isEqualTo("to the owner");
            assertThatThrownBy(t1::delete).as("still has a consumer").isInstanceOf(JMSException.class);
            own.close();
            t1.delete();
            assertThatThrownBy(() -> sa.createConsumer(t1)).isInstanceOf(InvalidDestinationException.class);
        }
    }

    @Test
    void temporaryTopicsDieWithTheirConnection() throws Exception {
        String url = InMem.newUrl();
        Connection a = InMem.connect(url);
        Fjm2TemporaryTopic t = (Fjm2TemporaryTopic) a.createSession().createTemporaryTopic();
        a.close();
        assertThat(t.isDeleted()).isTrue();
    }

    @Test
    void topicRequestorGetsItsReply() throws Exception {
        String url = InMem.newUrl();
        Fjm2ConnectionFactory factory = new Fjm2ConnectionFactory(url);
        try (TopicConnection server = factory.createTopicConnection();
             TopicConnection client = factory.createTopicConnection()) {
            TopicSession ss = server.createTopicSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic service = ss.createTopic("service.echo");
            MessageProducer replier = ss.createProducer(null);
            ss.createSubscriber(service).setMessageListener(request -> {
                try {
                    TextMessage reply = ss.createTextMessage("echo: " + ((TextMessage) request).getText());
                    reply.setJMSCorrelationID(request.getJMSMessageID());
                    replier.send(request.getJMSReplyTo(), reply);
                } catch (JMSException e) {
                    throw new RuntimeException(e);
                }
            });
            server.start();
            client.start();
            TopicSession cs = client.createTopicSession(false, Session.AUTO_ACKNOWLEDGE);
            TopicRequestor requestor = new TopicRequestor(cs, service);
            TextMessage request = cs.createTextMessage("ping");
            Message reply = requestor.request(request);
            assertThat(((TextMessage) reply).getText()).isEqualTo("echo: ping");
            assertThat(reply.getJMSCorrelationID()).isEqualTo(request.getJMSMessageID());
            assertThat(reply.getJMSDestination()).isInstanceOf(TemporaryTopic.class);
            requestor.close();
        }
    }
}
