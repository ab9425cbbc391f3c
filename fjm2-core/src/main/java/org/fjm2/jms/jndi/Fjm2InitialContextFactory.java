package org.fjm2.jms.jndi;

import jakarta.jms.JMSException;
import org.fjm2.jms.Fjm2ConnectionFactory;
import org.fjm2.jms.Fjm2Topic;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.naming.ConfigurationException;
import javax.naming.Context;
import javax.naming.NamingException;
import javax.naming.spi.InitialContextFactory;
import java.util.HashMap;
import java.util.Hashtable;
import java.util.Map;
import java.util.TreeSet;

/**
 * A read-only JNDI context built from the environment ({@code jndi.properties} or the Hashtable given to
 * {@code new InitialContext(env)}), the way ActiveMQ Artemis does it:
 * <pre>
 * java.naming.factory.initial = org.fjm2.jms.jndi.Fjm2InitialContextFactory
 * connectionFactory.ConnectionFactory = norm://239.255.0.1:6003?interface=lo
 * topic.prices = market.prices
 * </pre>
 * binds a connection factory under {@code ConnectionFactory} and a topic named {@code market.prices} under
 * {@code prices}. {@code dynamicTopics/NAME} looks up any topic without configuring it. When no
 * {@code connectionFactory.*} entry is given but {@code java.naming.provider.url} is, a factory with that URL is
 * bound as {@code ConnectionFactory}. {@code queue.NAME} entries (a jndi.properties written for a broker) are
 * ignored with one WARN naming them: FJM2 implements topics only.
 */
public final class Fjm2InitialContextFactory implements InitialContextFactory {

    public static final String CONNECTION_FACTORY_PREFIX = "connectionFactory.";
    public static final String TOPIC_PREFIX = "topic.";
    public static final String QUEUE_PREFIX = "queue.";
    public static final String DEFAULT_CONNECTION_FACTORY = "ConnectionFactory";

    private static final Logger LOG = LoggerFactory.getLogger(Fjm2InitialContextFactory.class);

    @Override
    public Context getInitialContext(Hashtable<?, ?> environment) throws NamingException {
        Map<String, Object> bindings = new HashMap<>();
        TreeSet<String> ignoredQueues = new TreeSet<>();
        for (Map.Entry<?, ?> e : environment.entrySet()) {
            String key = String.valueOf(e.getKey());
            String value = String.valueOf(e.getValue());
            if (key.startsWith(CONNECTION_FACTORY_PREFIX)) {
                bindings.put(key.substring(CONNECTION_FACTORY_PREFIX.length()), factory(key, value));
            } else if (key.startsWith(TOPIC_PREFIX)) {
                bindings.put(key.substring(TOPIC_PREFIX.length()), new Fjm2Topic(value));
            } else if (key.startsWith(QUEUE_PREFIX)) {
                ignoredQueues.add(key);
            }
        }
        if (!ignoredQueues.isEmpty()) {
            LOG.warn("JNDI: ignored {}: FJM2 implements topics only, queues are not supported (bind topics with"
                    + " topic.NAME)", String.join(", ", ignoredQueues));
        }
        Object providerUrl = environment.get(Context.PROVIDER_URL);
        boolean anyFactory = bindings.values().stream().anyMatch(v -> v instanceof Fjm2ConnectionFactory);
        if (!anyFactory && providerUrl != null) {
            bindings.put(DEFAULT_CONNECTION_FACTORY, factory(Context.PROVIDER_URL, providerUrl.toString()));
        }
        return new ReadOnlyContext(bindings, environment);
    }

    private static Fjm2ConnectionFactory factory(String key, String url) throws NamingException {
        try {
            return new Fjm2ConnectionFactory(url);
        } catch (JMSException e) {
            ConfigurationException ce = new ConfigurationException(key + ": " + e.getMessage());
            ce.setRootCause(e);
            throw ce;
        }
    }
}
