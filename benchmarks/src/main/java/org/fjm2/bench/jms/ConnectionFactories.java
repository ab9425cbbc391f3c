package org.fjm2.bench.jms;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import org.fjm2.bench.artemis.EmbeddedArtemis;
import org.fjm2.jms.Fjm2ConnectionFactory;

/** The connection factory of a benchmark URL: {@code norm://...} is FJM2, {@code tcp://...} the Artemis broker. */
public final class ConnectionFactories {

    private ConnectionFactories() {
    }

    public static ConnectionFactory forUrl(String url) throws JMSException {
        if (url.startsWith("norm://")) {
            return new Fjm2ConnectionFactory(url);
        }
        if (url.startsWith("tcp://")) {
            return EmbeddedArtemis.connectionFactory(url);
        }
        throw new IllegalArgumentException("not a norm:// or tcp:// URL: " + url);
    }
}
