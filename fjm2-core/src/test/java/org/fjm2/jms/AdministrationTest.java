package org.fjm2.jms;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.ConnectionMetaData;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidClientIDException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import org.fjm2.jms.jndi.Fjm2InitialContextFactory;
import org.fjm2.jms.jndi.Fjm2ObjectFactory;
import org.junit.jupiter.api.Test;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.naming.Context;
import javax.naming.InitialContext;
import javax.naming.NameNotFoundException;
import javax.naming.Reference;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.lang.management.ManagementFactory;
import java.util.Collections;
import java.util.Hashtable;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Connection factory URL checks, JNDI, JMX, client ids, metadata, and the features FJM2 refuses. */
class AdministrationTest {

    @Test
    void badUrlsFailAtFactoryConstructionNamingTheParameter() {
        assertThatThrownBy(() -> new Fjm2ConnectionFactory("inmem://g?noSuchThing=1"))
                .isInstanceOf(JMSException.class).hasMessageContaining("noSuchThing");
        assertThatThrownBy(() -> new Fjm2ConnectionFactory("inmem://g?maxBatchBytes=lots"))
                .isInstanceOf(JMSException.class).hasMessageContaining("maxBatchBytes");
        assertThatThrownBy(() -> new Fjm2ConnectionFactory("inmem://g?consumerOverflow=block"))
                .isInstanceOf(JMSException.class).hasMessageContaining("consumerOverflow");
        assertThatThrownBy(() -> new Fjm2ConnectionFactory("inmem://g?lossRate=2"))
                .isInstanceOf(JMSException.class).hasMessageContaining("lossRate");
        assertThatThrownBy(() -> new Fjm2ConnectionFactory("nosuch://g"))
                .isInstanceOf(JMSException.class).hasMessageContaining("nosuch").hasMessageContaining("inmem");
        assertThatThrownBy(() -> new Fjm2ConnectionFactory("inmem://g?seed=1&seed=2"))
                .isInstanceOf(JMSException.class).hasMessageContaining("seed");
        assertThatThrownBy(() -> new Fjm2ConnectionFactory("norm://239.255.0.1:6003?interface=lo&rateControl=turbo"))
                .isInstanceOf(JMSException.class).hasMessageContaining("rateControl");
        assertThatThrownBy(() -> new Fjm2ConnectionFactory("norm://239.255.0.1:6003?interface=lo&segmentSize=70000"))
                .isInstanceOf(JMSException.class).hasMessageContaining("segmentSize");
        assertThatThrownBy(() -> new Fjm2ConnectionFactory().createConnection())
                .isInstanceOf(JMSException.class).hasMessageContaining("setUrl");
    }

    @Test
    void factoryIsSerializableAndReferenceable() throws Exception {
        String url = InMem.newUrl("maxBatchBytes=4096");
        Fjm2ConnectionFactory factory = new Fjm2ConnectionFactory(url);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(factory);
        }
        Fjm2ConnectionFactory copy;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            copy = (Fjm2ConnectionFactory) in.readObject();
        }
        assertThat(copy.getUrl()).isEqualTo(url);
        Reference ref = factory.getReference();
        Object rebuilt = new Fjm2ObjectFactory().getObjectInstance(ref, null, null, new Hashtable<>());
        assertThat(((Fjm2ConnectionFactory) rebuilt).getUrl()).isEqualTo(url);
        try (Connection c = copy.createConnection()) {
            assertThat(c).isInstanceOf(Fjm2Connection.class);
        }
    }

    @Test
    void jndiLooksUpFactoriesAndTopicsLikeArtemis() throws Exception {
        String url = InMem.newUrl();
        Hashtable<String, String> env = new Hashtable<>();
        env.put(Context.INITIAL_CONTEXT_FACTORY, Fjm2InitialContextFactory.class.getName());
        env.put("connectionFactory.MyFactory", url);
        env.put("topic.prices", "market.prices");
        Context ctx = new InitialContext(env);
        ConnectionFactory factory = (ConnectionFactory) ctx.lookup("MyFactory");
        Topic prices = (Topic) ctx.lookup("prices");
        Topic dynamic = (Topic) ctx.lookup("dynamicTopics/news");
        assertThat(prices.getTopicName()).isEqualTo("market.prices");
        assertThat(dynamic.getTopicName()).isEqualTo("news");
        assertThatThrownBy(() -> ctx.lookup("nothing")).isInstanceOf(NameNotFoundException.class);
        try (Connection c = factory.createConnection()) {
            c.start();
            Session s = c.createSession();
            MessageConsumer consumer = s.createConsumer(prices);
            s.createProducer(prices).send(s.createTextMessage("via jndi"));
            assertThat(((TextMessage) consumer.receive(5000)).getText()).isEqualTo("via jndi");
        }
        Hashtable<String, String> providerOnly = new Hashtable<>();
        providerOnly.put(Context.INITIAL_CONTEXT_FACTORY, Fjm2InitialContextFactory.class.getName());
        providerOnly.put(Context.PROVIDER_URL, url);
        assertThat(new InitialContext(providerOnly).lookup("ConnectionFactory"))
                .isInstanceOf(Fjm2ConnectionFactory.class);
    }

    @Test
    void jmxShowsConnectionCountersUntilClose() throws Exception {
        String url = InMem.newUrl();
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName name;
        try (Connection pub = InMem.connect(url); Connection sub = new Fjm2ConnectionFactory(url).createConnection()) {
            sub.setClientID("jmx-test-client");
            sub.start();
            Session ps = pub.createSession();
            Topic topic = ps.createTopic("jmx");
            MessageConsumer consumer = sub.createSession().createConsumer(topic);
            for (int i = 0; i < 10; i++) {
                ps.createProducer(topic).send(ps.createTextMessage("m"));
            }
            for (int i = 0; i < 10; i++) {
                assertThat(consumer.receive(5000)).isNotNull();
            }
            Set<ObjectName> names = server.queryNames(
                    new ObjectName("org.fjm2:type=Connection,clientId=\"jmx-test-client\",*"), null);
            assertThat(names).hasSize(1);
            name = names.iterator().next();
            assertThat(name.getKeyProperty("node")).isEqualTo(((Fjm2Connection) sub).nodeIdText());
            assertThat(server.getAttribute(name, "MessagesReceived")).isEqualTo(10L);
            assertThat(server.getAttribute(name, "MessagesDelivered")).isEqualTo(10L);
            assertThat((Long) server.getAttribute(name, "ObjectsReceived")).isPositive();
            assertThat((Long) server.getAttribute(name, "BytesReceived")).isPositive();
            assertThat(server.getAttribute(name, "MessagesLost")).isEqualTo(0L);
            assertThat(server.getAttribute(name, "NacksSent")).isEqualTo(0L);
            assertThat(server.getAttribute(name, "ClientId")).isEqualTo("jmx-test-client");
        }
        assertThat(server.isRegistered(name)).as("unregistered on close").isFalse();
    }

    @Test
    void clientIdRules() throws Exception {
        String url = InMem.newUrl();
        Fjm2ConnectionFactory factory = new Fjm2ConnectionFactory(url);
        try (Connection a = factory.createConnection(); Connection b = factory.createConnection();
             Connection late = factory.createConnection()) {
            a.setClientID("same-id");
            assertThatThrownBy(() -> a.setClientID("again")).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> b.setClientID("same-id")).isInstanceOf(InvalidClientIDException.class);
            late.createSession();
            assertThatThrownBy(() -> late.setClientID("late")).isInstanceOf(IllegalStateException.class);
            assertThat(a.getClientID()).isEqualTo("same-id");
        }
        try (Connection administrative = new Fjm2ConnectionFactory(url + "?clientID=admin-id").createConnection()) {
            assertThat(administrative.getClientID()).isEqualTo("admin-id");
            assertThatThrownBy(() -> administrative.setClientID("x")).isInstanceOf(IllegalStateException.class);
        }
        try (Connection reused = factory.createConnection()) {
            reused.setClientID("same-id"); // free again once the first connection closed
        }
    }

    @Test
    void metadataNamesTheProviderAndJmsxProperties() throws Exception {
        try (Connection c = new Fjm2ConnectionFactory(InMem.newUrl()).createConnection()) {
            ConnectionMetaData md = c.getMetaData();
            assertThat(md.getJMSVersion()).isEqualTo("3.1");
            assertThat(md.getJMSMajorVersion()).isEqualTo(3);
            assertThat(md.getJMSProviderName()).isEqualTo("FJM2");
            assertThat(Collections.list(md.getJMSXPropertyNames())).contains("JMSXDeliveryCount");
        }
    }

    @Test
    void queuesAreRefusedAndDurableSubscriptionsWithoutAStoreFailClearly() throws Exception {
        try (Connection c = InMem.connect(InMem.newUrl())) {
            Session s = c.createSession();
            Topic t = s.createTopic("t");
            assertThatThrownBy(() -> s.createQueue("q")).isInstanceOf(JMSException.class)
                    .hasMessageContaining("point-to-point");
            assertThatThrownBy(s::createTemporaryQueue).hasMessageContaining("queues");
            assertThatThrownBy(() -> s.createBrowser(null)).hasMessageContaining("queues");
            Queue foreignQueue = () -> "q";
            assertThatThrownBy(() -> s.createConsumer(foreignQueue)).isInstanceOf(InvalidDestinationException.class);
            assertThatThrownBy(() -> s.createProducer(foreignQueue)).isInstanceOf(InvalidDestinationException.class);
            // Durable subscriptions are kept by a store (fjm2-store's tests); unshared ones need a client id first,
            // shared ones may be named without one.
            for (ThrowingCall call : new ThrowingCall[] {
                    () -> s.createSharedDurableConsumer(t, "d"),
                    () -> s.unsubscribe("d")}) {
                assertThatThrownBy(call::run).isInstanceOf(JMSException.class).hasMessageContaining("no store answered");
            }
            for (ThrowingCall call : new ThrowingCall[] {
                    () -> s.createDurableSubscriber(t, "d"),
                    () -> s.createDurableConsumer(t, "d")}) {
                assertThatThrownBy(call::run).isInstanceOf(jakarta.jms.IllegalStateException.class)
                        .hasMessageContaining("needs a client id");
            }
        }
        try (JMSContext context = new Fjm2ConnectionFactory(InMem.newUrl()).createContext()) {
            assertThatThrownBy(() -> context.createDurableConsumer(context.createTopic("t"), "d"))
                    .isInstanceOf(jakarta.jms.IllegalStateRuntimeException.class)
                    .hasMessageContaining("needs a client id");
            assertThatThrownBy(() -> context.createSharedDurableConsumer(context.createTopic("t"), "d"))
                    .isInstanceOf(JMSRuntimeException.class)
                    .hasMessageContaining("createSharedDurableConsumer of subscription 'd': no store answered");
            assertThatThrownBy(() -> context.createQueue("q")).isInstanceOf(JMSRuntimeException.class)
                    .hasMessageContaining("point-to-point");
        }
    }

    private interface ThrowingCall {
        void run() throws Exception;
    }
}
