package org.fjm2.bench.artemis;

import jakarta.jms.ConnectionFactory;
import org.apache.activemq.artemis.core.config.Configuration;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.server.embedded.EmbeddedActiveMQ;
import org.apache.activemq.artemis.core.settings.impl.AddressSettings;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * The broker FJM2 is compared with: an ActiveMQ Artemis server embedded in the benchmark's JVM, with one TCP
 * acceptor on loopback, no persistence and no security, so that it is measured at its fastest (NON_PERSISTENT,
 * non-durable topic subscribers). Clients connect through {@link #connectionFactory()}, or through a URL that
 * points at a relay in front of {@link #port()} (the link emulator's TCP mode).
 */
public final class EmbeddedArtemis implements AutoCloseable {

    /** Default acceptor port; benchmarks pass their own to run several brokers side by side. */
    public static final int DEFAULT_PORT = 61616;

    /**
     * Bytes a slow subscriber may hold on the broker before the broker pages or blocks; large enough that the
     * broker is never throttled by its own address limit in a benchmark (Artemis's default is half the heap).
     */
    public static final long MAX_ADDRESS_BYTES = 512L << 20;

    private final int port;
    private final EmbeddedActiveMQ server = new EmbeddedActiveMQ();

    private EmbeddedArtemis(int port) {
        this.port = port;
    }

    /** Starts a broker listening on {@code 127.0.0.1:port}. */
    public static EmbeddedArtemis start(int port) throws Exception {
        return start(port, null);
    }

    /**
     * Starts a broker on {@code 127.0.0.1:port} that journals durable messages in {@code journalDirectory} (NIO
     * journal, its defaults: every durable send and commit synced to disk before it is confirmed), or without
     * persistence when null.
     */
    public static EmbeddedArtemis start(int port, java.nio.file.Path journalDirectory) throws Exception {
        EmbeddedArtemis broker = new EmbeddedArtemis(port);
        Configuration config = new ConfigurationImpl()
                .setName("fjm2-bench-artemis-" + port)
                .setPersistenceEnabled(journalDirectory != null)
                .setSecurityEnabled(false)
                .setJMXManagementEnabled(false)
                .addAcceptorConfiguration("tcp", "tcp://127.0.0.1:" + port + "?tcpNoDelay=true")
                .addAddressSetting("#", new AddressSettings()
                        .setAutoCreateAddresses(true)
                        .setAutoCreateQueues(true)
                        .setMaxSizeBytes(MAX_ADDRESS_BYTES));
        if (journalDirectory != null) {
            config.setJournalType(org.apache.activemq.artemis.core.server.JournalType.NIO)
                    .setJournalDirectory(journalDirectory.resolve("journal").toString())
                    .setBindingsDirectory(journalDirectory.resolve("bindings").toString())
                    .setLargeMessagesDirectory(journalDirectory.resolve("large").toString())
                    .setPagingDirectory(journalDirectory.resolve("paging").toString());
        }
        broker.server.setConfiguration(config);
        broker.server.start();
        return broker;
    }

    public int port() {
        return port;
    }

    /** The broker's own URL on loopback. */
    public String url() {
        return url(port);
    }

    /** A core-protocol URL for a broker (or a relay in front of it) at {@code 127.0.0.1:port}. */
    public static String url(int port) {
        return "tcp://127.0.0.1:" + port + "?tcpNoDelay=true";
    }

    /** A Jakarta connection factory for this broker. */
    public ConnectionFactory connectionFactory() {
        return connectionFactory(url());
    }

    /** A Jakarta connection factory for {@code url}, e.g. a relay in front of the broker. */
    public static ConnectionFactory connectionFactory(String url) {
        return new ActiveMQConnectionFactory(url);
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
