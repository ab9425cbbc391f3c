package org.fjm2.jms.management;

import org.fjm2.norm.api.NormCounters;

/**
 * The counters of one FJM2 connection for the application itself ({@code Fjm2Connection.statistics()}): what its
 * MBean shows, and each NORM engine counter by its enum constant. Reads are cheap and thread-safe; all counters
 * are monotonic since the connection opened.
 */
public interface ConnectionStatistics extends ConnectionStatsMBean {

    /** One counter of the NORM engine; 0 over a transport without NORM ({@code inmem}). */
    long normCounter(NormCounters.Counter counter);
}
