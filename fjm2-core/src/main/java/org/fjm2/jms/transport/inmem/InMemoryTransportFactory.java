package org.fjm2.jms.transport.inmem;

import org.fjm2.jms.transport.ObjectTransport;
import org.fjm2.jms.transport.ObjectTransportFactory;
import org.fjm2.jms.transport.TransportParameter;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Transports for {@code inmem://NAME?...}: every connection with the same NAME <b>in one JVM</b> joins one group,
 * each with its own node id. Nothing leaves the process, so this is for tests and demos of applications
 * (like Artemis's in-VM acceptor), not for talking to other processes.
 *
 * <p>It behaves like a reliable multicast transport: bounded transmit queues with back-pressure, per-priority
 * transmit order, a delivery thread per receiver, and seeded injection of unrecoverable object loss
 * ({@code lossRate}, {@code seed}) reported through {@code onObjectsLost} to the receivers that lose an object.
 */
public final class InMemoryTransportFactory implements ObjectTransportFactory {

    /** The URL scheme. */
    public static final String SCHEME = "inmem";

    private static final Map<String, InMemoryGroup> GROUPS = new ConcurrentHashMap<>();

    @Override
    public String scheme() {
        return SCHEME;
    }

    @Override
    public List<TransportParameter> parameters() {
        return InMemorySettings.PARAMETERS;
    }

    @Override
    public void validate(URI uri, Map<String, String> transportParameters) {
        groupName(uri);
        InMemorySettings.parse(transportParameters);
    }

    @Override
    public ObjectTransport create(URI uri, Map<String, String> transportParameters) {
        String name = groupName(uri);
        InMemorySettings settings = InMemorySettings.parse(transportParameters);
        while (true) {
            InMemoryGroup group = GROUPS.computeIfAbsent(name, InMemoryGroup::new);
            InMemoryTransport transport = group.join(settings, GROUPS::remove);
            if (transport != null) {
                return transport;
            }
            // The group emptied and was retired between lookup and join: take a fresh one.
        }
    }

    static String groupName(URI uri) {
        String name = uri.getRawAuthority();
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("inmem URL needs a group name: inmem://NAME, got " + uri);
        }
        return name;
    }
}
