package org.fjm2.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import jakarta.jms.ConnectionFactory;

import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jms.annotation.JmsListener;
import org.springframework.jms.config.JmsListenerEndpointRegistry;
import org.springframework.jms.core.JmsTemplate;

/**
 * A whole Spring Boot application, started as users start theirs: the starter is found through
 * AutoConfiguration.imports and spring.factories alone, a {@code @JmsListener} subscribes at start and receives
 * what the JmsTemplate sends to the same topic name.
 */
class Fjm2ApplicationTest {

    private static final long RECEIVE_TIMEOUT_MILLIS = 10_000;
    private static final long SEND_INTERVAL_MILLIS = 100;

    @Test
    void anApplicationSendsToItsOwnListener() throws Exception {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(PriceApplication.class)
                .web(WebApplicationType.NONE)
                .properties("fjm2.url=inmem://boot-application")
                .run()) {
            assertThat(context.getBean(ConnectionFactory.class)).isNotNull();
            JmsTemplate template = context.getBean(JmsTemplate.class);
            assertThat(template.isPubSubDomain()).as("topics by default").isTrue();
            assertThat(context.getBean(JmsListenerEndpointRegistry.class).getListenerContainers())
                    .allMatch(container -> container.isRunning());

            // The listener container subscribes on its own thread after start: send until it has.
            BlockingQueue<String> received = context.getBean(Prices.class).received;
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RECEIVE_TIMEOUT_MILLIS);
            String price = null;
            while (price == null && System.nanoTime() - deadline < 0) {
                template.convertAndSend(PriceApplication.TOPIC, "EUR/USD 1.0842");
                price = received.poll(SEND_INTERVAL_MILLIS, TimeUnit.MILLISECONDS);
            }
            assertThat(price).as("received within %d ms", RECEIVE_TIMEOUT_MILLIS).isEqualTo("EUR/USD 1.0842");
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class PriceApplication {
        static final String TOPIC = "prices";

        @Bean
        Prices prices() {
            return new Prices();
        }
    }

    static class Prices {
        final BlockingQueue<String> received = new LinkedBlockingQueue<>();

        @JmsListener(destination = PriceApplication.TOPIC)
        void onPrice(String price) {
            received.add(price);
        }
    }
}
