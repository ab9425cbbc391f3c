package org.fjm2.bench.jms;

import java.lang.management.ManagementFactory;
import java.util.Set;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The FJM2 connection counters of this JVM (their JMX MBeans), summed over its connections: where a subscriber's
 * missing messages went (lost on the network, dropped by a full consumer queue). Empty for other providers.
 */
public final class Fjm2Stats {

    /** Counters reported, by their MBean attribute names. */
    static final String[] ATTRIBUTES = {"MessagesLost", "ObjectsLost", "ConsumerOverflowDrops", "NacksSent",
            "RepairsSent", "DuplicatesDiscarded"};

    private Fjm2Stats() {
    }

    /** "name=value ..." of every counter summed over this JVM's FJM2 connections, or "" if there are none. */
    public static String summary() {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            Set<ObjectName> names = server.queryNames(new ObjectName("org.fjm2:type=Connection,*"), null);
            if (names.isEmpty()) {
                return "";
            }
            StringBuilder sb = new StringBuilder();
            for (String attribute : ATTRIBUTES) {
                long total = 0;
                for (ObjectName name : names) {
                    total += ((Number) server.getAttribute(name, attribute)).longValue();
                }
                sb.append(sb.isEmpty() ? "" : " ").append(attribute).append('=').append(total);
            }
            return sb.toString();
        } catch (JMException e) {
            return "counters unavailable: " + e;
        }
    }
}
