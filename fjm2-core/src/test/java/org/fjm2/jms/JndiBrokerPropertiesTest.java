package org.fjm2.jms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringReader;
import java.util.Properties;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import javax.naming.Context;
import javax.naming.InitialContext;
import javax.naming.NameNotFoundException;

import org.fjm2.jms.jndi.Fjm2InitialContextFactory;
import org.junit.jupiter.api.Test;

/**
 * A jndi.properties written for a broker (Artemis style, with queues) still gives a working context: the
 * {@code queue.*} lines are ignored with one WARN that names them, the factory and the topics work.
 */
class JndiBrokerPropertiesTest {

    @Test
    void queueLinesAreIgnoredWithOneWarningAndTheRestWorks() throws Exception {
        Properties env = new Properties();
        env.load(new StringReader("""
                java.naming.factory.initial = %s
                connectionFactory.ConnectionFactory = %s
                queue.orders = shop.orders
                queue.invoices = shop.invoices
                topic.prices = market.prices
                """.formatted(Fjm2InitialContextFactory.class.getName(), InMem.newUrl())));
        Context ctx;
        try (LogCapture log = new LogCapture()) {
            ctx = new InitialContext(env);
            assertThat(log.lines("queue")).as("one WARN for all queue lines").hasSize(1);
            assertThat(log.lines("queue").get(0)).contains("queue.invoices, queue.orders")
                    .contains("queues are not supported");
        }
        assertThatThrownBy(() -> ctx.lookup("orders")).isInstanceOf(NameNotFoundException.class);
        ConnectionFactory factory = (ConnectionFactory) ctx.lookup("ConnectionFactory");
        Topic prices = (Topic) ctx.lookup("prices");
        try (Connection c = factory.createConnection()) {
            c.start();
            Session s = c.createSession();
            MessageConsumer consumer = s.createConsumer(prices);
            s.createProducer(prices).send(s.createTextMessage("despite the queues"));
            assertThat(((TextMessage) consumer.receive(5000)).getText()).isEqualTo("despite the queues");
        }
    }

    @Test
    void noQueueLinesNoWarning() throws Exception {
        Properties env = new Properties();
        env.put(Context.INITIAL_CONTEXT_FACTORY, Fjm2InitialContextFactory.class.getName());
        env.put("topic.prices", "market.prices");
        try (LogCapture log = new LogCapture()) {
            new InitialContext(env).lookup("prices");
            assertThat(log.lines("queue")).isEmpty();
        }
    }
}
