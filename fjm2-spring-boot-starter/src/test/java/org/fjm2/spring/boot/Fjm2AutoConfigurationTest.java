package org.fjm2.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.jms.ConnectionFactory;

import org.fjm2.jms.Fjm2ConnectionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.jms.JmsAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jms.connection.CachingConnectionFactory;
import org.springframework.jms.core.JmsTemplate;

/**
 * The starter in a small application (Spring Boot's JMS auto-configuration included): a JmsTemplate over the
 * factory it makes sends and receives on a topic, in-JVM and over real NORM on loopback (run inside a network
 * namespace with only loopback, like every multicast test of the project).
 */
class Fjm2AutoConfigurationTest {

    /** Fresh multicast groups and ports per run, so that two builds on one host do not hear each other. */
    private static final AtomicInteger NEXT = new AtomicInteger((int) (ProcessHandle.current().pid() % 200) * 20);
    private static final long RECEIVE_TIMEOUT_MILLIS = 10_000;
    private static final long SEND_INTERVAL_MILLIS = 100;

    private static final ExecutorService RECEIVER = Executors.newSingleThreadExecutor();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withInitializer(context -> new Fjm2EnvironmentDefaults()
                    .postProcessEnvironment(context.getEnvironment(), null))
            .withConfiguration(AutoConfigurations.of(Fjm2AutoConfiguration.class, JmsAutoConfiguration.class));

    @AfterAll
    static void stopReceiver() {
        RECEIVER.shutdownNow();
    }

    @Test
    void jmsTemplateSendsAndReceivesInMemory() {
        runner.withPropertyValues("fjm2.url=inmem://boot-test").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(ConnectionFactory.class)).isInstanceOf(CachingConnectionFactory.class);
            JmsTemplate template = context.getBean(JmsTemplate.class);
            assertRoundTrip(template, template, "boot.inmem");
        });
    }

    @Test
    void jmsTemplateSendsAndReceivesOverNorm() {
        int n = NEXT.getAndIncrement();
        String url = "norm://239.255." + ((n >> 8) & 0xFF) + "." + (n & 0xFF) + ":" + (31000 + n % 20000)
                + "?interface=lo";
        ApplicationContextRunner application = runner.withPropertyValues("fjm2.url=" + url,
                "fjm2.parameters.grtt=0.002", "fjm2.parameters.rate=100m");
        // Two applications, two NORM sessions: the message crosses the network, not the connection's local path.
        application.run(subscriber -> application.run(publisher -> {
            assertThat(subscriber).hasNotFailed();
            assertThat(publisher).hasNotFailed();
            assertRoundTrip(publisher.getBean(JmsTemplate.class), subscriber.getBean(JmsTemplate.class),
                    "boot.norm");
        }));
    }

    @Test
    void propertiesReachTheUrl() {
        runner.withPropertyValues("fjm2.url=inmem://props", "fjm2.client-id=app 1", "fjm2.parameters.jmx=false",
                "spring.jms.cache.enabled=false").run(context -> {
                    Fjm2ConnectionFactory factory = context.getBean(Fjm2ConnectionFactory.class);
                    assertThat(factory.getUrl()).isEqualTo("inmem://props?jmx=false&clientID=app+1");
                });
    }

    @Test
    void withoutAUrlTheConnectionsStayInTheJvm() {
        runner.withPropertyValues("spring.jms.cache.enabled=false").run(context ->
                assertThat(context.getBean(Fjm2ConnectionFactory.class).getUrl())
                        .isEqualTo(Fjm2Properties.DEFAULT_URL));
    }

    @Test
    void backsOffWhenTheApplicationDefinesAConnectionFactory() {
        runner.withUserConfiguration(OwnFactory.class).run(context -> {
            assertThat(context).hasSingleBean(ConnectionFactory.class);
            assertThat(context.getBean(ConnectionFactory.class)).isSameAs(OwnFactory.FACTORY);
        });
    }

    @Test
    void canBeSwitchedOff() {
        runner.withPropertyValues("fjm2.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(ConnectionFactory.class));
    }

    @Test
    void destinationNamesAreTopicsUnlessTheApplicationSaysOtherwise() {
        runner.run(context -> assertThat(context.getBean(JmsTemplate.class).isPubSubDomain()).isTrue());
        runner.withPropertyValues("spring.jms.pub-sub-domain=false")
                .run(context -> assertThat(context.getBean(JmsTemplate.class).isPubSubDomain()).isFalse());
    }

    /**
     * A topic delivers only to subscribers that exist when it is sent: the receive starts first and the sends
     * repeat until it has subscribed and got one.
     */
    private static void assertRoundTrip(JmsTemplate sender, JmsTemplate receiver, String topic) throws Exception {
        receiver.setReceiveTimeout(RECEIVE_TIMEOUT_MILLIS);
        CompletableFuture<Object> received = CompletableFuture.supplyAsync(
                () -> receiver.receiveAndConvert(topic), RECEIVER);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RECEIVE_TIMEOUT_MILLIS);
        while (true) {
            sender.convertAndSend(topic, "hello " + topic);
            try {
                assertThat(received.get(SEND_INTERVAL_MILLIS, TimeUnit.MILLISECONDS)).isEqualTo("hello " + topic);
                return;
            } catch (TimeoutException e) {
                assertThat(System.nanoTime() - deadline).as("received within %d ms", RECEIVE_TIMEOUT_MILLIS)
                        .isNegative();
            }
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnFactory {
        static final ConnectionFactory FACTORY = new Fjm2ConnectionFactory();

        @Bean
        ConnectionFactory myFactory() {
            return FACTORY;
        }
    }
}
