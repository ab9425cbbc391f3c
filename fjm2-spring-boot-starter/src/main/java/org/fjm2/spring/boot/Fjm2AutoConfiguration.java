package org.fjm2.spring.boot;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;

import org.fjm2.jms.Fjm2ConnectionFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.jms.JmsAutoConfiguration;
import org.springframework.boot.autoconfigure.jms.JmsProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.jms.connection.CachingConnectionFactory;

/**
 * A {@link ConnectionFactory} bean over FJM2 from the {@code fjm2.*} properties, before Spring Boot's
 * {@link JmsAutoConfiguration} builds its JmsTemplate and listener containers on it. Backs off when the
 * application defines a ConnectionFactory of its own.
 *
 * <p>As with Spring Boot's own JMS starters, {@code spring.jms.cache.*} decides whether the factory is wrapped in
 * a {@link CachingConnectionFactory} (the default: one shared connection). Without it JmsTemplate would open a
 * connection, and so a NORM session, for every send and receive; a subscriber that came and went between two
 * sends would never see them.
 */
@AutoConfiguration(before = JmsAutoConfiguration.class)
@ConditionalOnClass({ConnectionFactory.class, Fjm2ConnectionFactory.class})
@ConditionalOnMissingBean(ConnectionFactory.class)
@ConditionalOnProperty(prefix = Fjm2Properties.PREFIX, name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties({Fjm2Properties.class, JmsProperties.class})
public class Fjm2AutoConfiguration {

    private static final Logger LOG = LoggerFactory.getLogger(Fjm2AutoConfiguration.class);

    @Bean
    public ConnectionFactory jmsConnectionFactory(Fjm2Properties properties, JmsProperties jms)
            throws JMSException {
        String url = Fjm2Urls.of(properties);
        if (properties.getUrl().equals(Fjm2Properties.DEFAULT_URL)) {
            LOG.info("fjm2.url not set: connections stay inside this JVM ({})", url);
        }
        Fjm2ConnectionFactory factory = new Fjm2ConnectionFactory(url);
        JmsProperties.Cache cache = jms.getCache();
        if (!cache.isEnabled()) {
            return factory;
        }
        CachingConnectionFactory caching = new CachingConnectionFactory(factory);
        caching.setCacheConsumers(cache.isConsumers());
        caching.setCacheProducers(cache.isProducers());
        caching.setSessionCacheSize(cache.getSessionCacheSize());
        return caching;
    }
}
