package org.fjm2.jms.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import org.fjm2.jms.Fjm2Connection;
import org.fjm2.jms.Fjm2ConnectionFactory;
import org.fjm2.jms.management.NormCountersData;
import org.fjm2.norm.api.NormCounters;
import org.junit.jupiter.api.Test;

import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Proxy;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The connection's meters in a SimpleMeterRegistry, in-JVM and over NORM on loopback (inside a network namespace
 * with only loopback, as every multicast test), and the NORM counters in the connection's MBean.
 */
class Fjm2ConnectionMetricsTest {

    private static final AtomicInteger NEXT = new AtomicInteger((int) (ProcessHandle.current().pid() % 200) * 20);
    private static final long RECEIVE_TIMEOUT_MILLIS = 10_000;

    @Test
    void countsWhatTheConnectionSendsAndDelivers() throws Exception {
        MeterRegistry registry = new SimpleMeterRegistry();
        Fjm2ConnectionFactory factory = new Fjm2ConnectionFactory("inmem://metrics-test");
        try (Connection connection = factory.createConnection()) {
            new Fjm2ConnectionMetrics(connection, Tag.of("application", "test")).bindTo(registry);
            String node = Long.toString(((Fjm2Connection) connection).statistics().getNodeId());

            roundTrip(connection, connection, "metrics");

            assertThat(counter(registry, "fjm2.connection.messages.sent").count()).isEqualTo(1);
            assertThat(counter(registry, "fjm2.connection.messages.delivered").count()).isEqualTo(1);
            assertThat(counter(registry, "fjm2.connection.messages.sent").getId().getTags())
                    .contains(Tag.of("connection", node), Tag.of("application", "test"));
            for (NormCounters.Counter c : NormCounters.Counter.values()) {
                assertThat(counter(registry, Fjm2ConnectionMetrics.normMeterName(c)).count())
                        .as("no NORM session in-JVM: %s", c).isZero();
            }
            assertThat(registry.get("fjm2.connection.pending.objects").gauge().value()).isZero();
        }
    }

    @Test
    void everyNormCounterReachesTheMetricsAndTheMBean() throws Exception {
        int n = NEXT.getAndIncrement();
        String url = "norm://239.255." + (100 + ((n >> 8) & 0x7F)) + "." + (n & 0xFF) + ":" + (33000 + n % 20000)
                + "?interface=lo&grtt=0.002";
        MeterRegistry registry = new SimpleMeterRegistry();
        Fjm2ConnectionFactory factory = new Fjm2ConnectionFactory(url);
        try (Connection publisher = factory.createConnection(); Connection subscriber = factory.createConnection()) {
            new Fjm2ConnectionMetrics(publisher).bindTo(registry);
            new Fjm2ConnectionMetrics(subscriber).bindTo(registry);

            roundTrip(publisher, subscriber, "metrics.norm");

            String publisherNode = Long.toString(((Fjm2Connection) publisher).statistics().getNodeId());
            String subscriberNode = Long.toString(((Fjm2Connection) subscriber).statistics().getNodeId());
            assertThat(registry.get("fjm2.norm.objects.sent").tag("connection", publisherNode).functionCounter()
                    .count()).isPositive();
            assertThat(registry.get("fjm2.norm.objects.received").tag("connection", subscriberNode)
                    .functionCounter().count()).isPositive();
            assertThat(registry.get("fjm2.norm.packets.sent").functionCounters())
                    .as("one per connection").hasSize(2);
            assertThat(registry.find("fjm2.norm.receivers.suspended").functionCounters()).hasSize(2);

            ObjectName name = mbeanOf(publisherNode);
            CompositeData norm = (CompositeData) ManagementFactory.getPlatformMBeanServer()
                    .getAttribute(name, "NormCounters");
            Set<String> keys = norm.getCompositeType().keySet();
            assertThat(keys).hasSize(NormCounters.Counter.values().length)
                    .contains(NormCountersData.name(NormCounters.Counter.INTERNAL_ERRORS));
            assertThat((Long) norm.get("objects_sent")).isPositive();
            assertThat((Long) norm.get("objects_sent"))
                    .isEqualTo(((Fjm2Connection) publisher).statistics().normCounter(NormCounters.Counter.OBJECTS_SENT));
        }
    }

    @Test
    void refusesAConnectionOfAnotherProvider() {
        Connection other = (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> null);
        assertThatThrownBy(() -> new Fjm2ConnectionMetrics(other))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not an FJM2 connection");
    }

    private static ObjectName mbeanOf(String node) throws Exception {
        Set<ObjectName> names = ManagementFactory.getPlatformMBeanServer()
                .queryNames(new ObjectName("org.fjm2:type=Connection,node=" + node + ",*"), null);
        assertThat(names).hasSize(1);
        return names.iterator().next();
    }

    private static FunctionCounter counter(MeterRegistry registry, String name) {
        return registry.get(name).functionCounter();
    }

    /** The subscriber subscribes, then the publisher sends until it is received (a topic has no backlog). */
    private static void roundTrip(Connection publisher, Connection subscriber, String topicName) throws Exception {
        subscriber.start();
        Session in = subscriber.createSession(false, Session.AUTO_ACKNOWLEDGE);
        Topic topic = in.createTopic(topicName);
        MessageConsumer consumer = in.createConsumer(topic);
        Session out = publisher.createSession(false, Session.AUTO_ACKNOWLEDGE);
        out.createProducer(topic).send(out.createTextMessage("hello"));
        assertThat(consumer.receive(RECEIVE_TIMEOUT_MILLIS)).as("received within %d ms", RECEIVE_TIMEOUT_MILLIS)
                .isNotNull();
    }
}
