package org.fjm2.jms;

import org.fjm2.jms.management.ConnectionStatsMBean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.management.JMException;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A connection's MBean in the platform MBean server, {@code org.fjm2:type=Connection,clientId=<id or none>,
 * node=<node id>,instance=<n>}: registered as the connection opens (unless {@code jmx=false}), registered again
 * under the new name when the client id is set, unregistered on close. A failure to register is logged, never
 * fatal: the counters are a view, the connection works without them.
 */
final class ConnectionMBean {

    private static final Logger LOG = LoggerFactory.getLogger(ConnectionMBean.class);
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final boolean enabled;
    private final String node;
    private final ConnectionStats stats;
    private final int instance = INSTANCES.incrementAndGet();
    private ObjectName name;

    /** @param enabled the {@code jmx} setting */
    ConnectionMBean(boolean enabled, String node, ConnectionStats stats) {
        this.enabled = enabled;
        this.node = node;
        this.stats = stats;
    }

    /** (Re-)registers under the name for this client id (null: none). */
    synchronized void register(String clientId) {
        unregister();
        if (!enabled) {
            return;
        }
        try {
            String id = clientId == null ? "none" : ObjectName.quote(clientId);
            ObjectName n = new ObjectName("org.fjm2:type=Connection,clientId=" + id + ",node=" + node
                    + ",instance=" + instance);
            ManagementFactory.getPlatformMBeanServer().registerMBean(
                    new StandardMBean(stats, ConnectionStatsMBean.class), n);
            name = n;
        } catch (JMException | RuntimeException e) {
            LOG.warn("could not register the connection MBean: {}", e.toString());
        }
    }

    synchronized void unregister() {
        ObjectName n = name;
        if (n == null) {
            return;
        }
        try {
            ManagementFactory.getPlatformMBeanServer().unregisterMBean(n);
        } catch (JMException e) {
            LOG.debug("MBean {} already gone: {}", n, e.toString());
        }
        name = null;
    }

    /** The registered name, or null. */
    synchronized ObjectName name() {
        return name;
    }
}
