package org.fjm2.jms;

import org.fjm2.jms.message.ObjectMessageAllowList;
import org.fjm2.jms.transport.TransportParameter;

import java.util.List;

/**
 * The connection URL parameters that the JMS layer itself reads (the transport reads the others). Each is a
 * constant with its default; {@link #ALL} lists them for documentation and tool help.
 */
public final class JmsParameters {

    /** How long a partly filled batch may wait for more messages while the transport is busy, microseconds. */
    public static final String BATCH_LINGER_MICROS = "batchLingerMicros";
    public static final long BATCH_LINGER_MICROS_DEFAULT = 1000;

    /** A batch is sent once it holds this many bytes; larger single messages travel alone. */
    public static final String MAX_BATCH_BYTES = "maxBatchBytes";
    public static final int MAX_BATCH_BYTES_DEFAULT = 64 * 1024;

    /** Messages a consumer may have waiting before its overflow policy applies. */
    public static final String CONSUMER_QUEUE_MESSAGES = "consumerQueueMessages";
    public static final int CONSUMER_QUEUE_MESSAGES_DEFAULT = 100_000;

    /** Bytes (encoded size) a consumer may have waiting before its overflow policy applies. */
    public static final String CONSUMER_QUEUE_BYTES = "consumerQueueBytes";
    public static final long CONSUMER_QUEUE_BYTES_DEFAULT = 64L * 1024 * 1024;

    /** What a full consumer queue drops: {@code drop-oldest} or {@code drop-newest}; both are counted and reported. */
    public static final String CONSUMER_OVERFLOW = "consumerOverflow";
    public static final String CONSUMER_OVERFLOW_DEFAULT = OverflowPolicy.DROP_OLDEST.parameterValue();

    /**
     * Whether a backed-up consumer queue (a quarter full) slows the publishers down through the transport (NORM: held
     * watermark acknowledgements, for up to the senders' maxHold) before its bound drops anything.
     */
    public static final String CONSUMER_BACK_PRESSURE = "consumerBackPressure";
    public static final boolean CONSUMER_BACK_PRESSURE_DEFAULT = true;

    /** How long send() waits for room in the transport (back-pressure) before it fails, milliseconds. */
    public static final String SEND_TIMEOUT_MILLIS = "sendTimeoutMillis";
    public static final long SEND_TIMEOUT_MILLIS_DEFAULT = 30_000;

    /** Classes ObjectMessage.getObject() may deserialise; see {@link ObjectMessageAllowList}. */
    public static final String OBJECT_MESSAGE_ALLOW_LIST = ObjectMessageAllowList.PARAMETER;
    public static final String OBJECT_MESSAGE_ALLOW_LIST_DEFAULT = ObjectMessageAllowList.DEFAULT_PATTERNS;

    /** Client id given to every connection of the factory (administratively configured); none by default. */
    public static final String CLIENT_ID = "clientID";
    public static final String CLIENT_ID_DEFAULT = "";

    /** Times a message is redelivered when a MessageListener throws (AUTO/DUPS_OK) before it is dropped. */
    public static final String MAX_REDELIVERIES = "maxRedeliveries";
    public static final int MAX_REDELIVERIES_DEFAULT = 10;

    /**
     * How far apart the wall clocks of publishing and subscribing hosts may be, milliseconds. A producer whose first
     * message seen here is numbered above 1, on a connection that started more than this after ours, lost its first
     * messages while we listened (the start of its stream fell into an outage): they are counted and reported.
     */
    public static final String CLOCK_SKEW_MILLIS = "clockSkewMillis";
    public static final long CLOCK_SKEW_MILLIS_DEFAULT = 2000;

    /** Register a JMX MBean with counters for every connection. */
    public static final String JMX = "jmx";
    public static final boolean JMX_DEFAULT = true;

    /**
     * Stores (fjm2-store) that must report a PERSISTENT message on disk before its send returns (or its
     * CompletionListener completes); 0: no waiting, PERSISTENT is carried in the header only. No quorum within
     * sendTimeoutMillis fails the send, naming the stores that answered. NON_PERSISTENT sends never wait.
     */
    public static final String STORE_QUORUM = "storeQuorum";
    public static final int STORE_QUORUM_DEFAULT = 0;
    /** Most stores a send may wait for: more copies than this is a configuration mistake, not more safety. */
    public static final int STORE_QUORUM_MAX = 16;

    /**
     * A new non-durable consumer first gets the last N PERSISTENT messages of its topic that a store (fjm2-store)
     * keeps, then the live ones, without a duplicate at the switch; 0: live messages only.
     */
    public static final String LATE_JOIN = "lateJoin";
    public static final int LATE_JOIN_DEFAULT = 0;
    /** Most messages a late join asks for: what a store keeps per topic in memory for it. */
    public static final int LATE_JOIN_MAX = 1000;

    public static final List<TransportParameter> ALL = List.of(
            new TransportParameter(BATCH_LINGER_MICROS, String.valueOf(BATCH_LINGER_MICROS_DEFAULT),
                    "longest wait of a partly filled batch while the transport is busy (us); an idle transport"
                            + " sends at once"),
            new TransportParameter(MAX_BATCH_BYTES, String.valueOf(MAX_BATCH_BYTES_DEFAULT),
                    "a batch of small messages is sent once it holds this many bytes"),
            new TransportParameter(CONSUMER_QUEUE_MESSAGES, String.valueOf(CONSUMER_QUEUE_MESSAGES_DEFAULT),
                    "messages waiting per consumer before consumerOverflow applies"),
            new TransportParameter(CONSUMER_QUEUE_BYTES, String.valueOf(CONSUMER_QUEUE_BYTES_DEFAULT),
                    "encoded bytes waiting per consumer before consumerOverflow applies"),
            new TransportParameter(CONSUMER_OVERFLOW, CONSUMER_OVERFLOW_DEFAULT,
                    "drop-oldest or drop-newest: what a full consumer queue drops (counted, reported)"),
            new TransportParameter(CONSUMER_BACK_PRESSURE, String.valueOf(CONSUMER_BACK_PRESSURE_DEFAULT),
                    "a consumer queue a quarter full slows the publishers (NORM: held acknowledgements, up to their"
                            + " maxHold) before consumerOverflow drops anything; false: only drop"),
            new TransportParameter(SEND_TIMEOUT_MILLIS, String.valueOf(SEND_TIMEOUT_MILLIS_DEFAULT),
                    "how long send() blocks on back-pressure before it throws (ms)"),
            new TransportParameter(OBJECT_MESSAGE_ALLOW_LIST, OBJECT_MESSAGE_ALLOW_LIST_DEFAULT,
                    "classes ObjectMessage may deserialise: a.B, pkg.*, pkg.** or *, comma-separated"),
            new TransportParameter(CLIENT_ID, CLIENT_ID_DEFAULT,
                    "client id of every connection made by the factory (none by default)"),
            new TransportParameter(MAX_REDELIVERIES, String.valueOf(MAX_REDELIVERIES_DEFAULT),
                    "redeliveries when a MessageListener throws, before the message is dropped and counted"),
            new TransportParameter(CLOCK_SKEW_MILLIS, String.valueOf(CLOCK_SKEW_MILLIS_DEFAULT),
                    "how far apart publishers' and subscribers' clocks may be (ms): a producer started later than that "
                            + "after this connection whose first message seen is not its first lost the others"),
            new TransportParameter(JMX, String.valueOf(JMX_DEFAULT),
                    "register a JMX MBean with the counters of each connection"),
            new TransportParameter(STORE_QUORUM, String.valueOf(STORE_QUORUM_DEFAULT),
                    "stores that must have a PERSISTENT message on disk before its send returns (0: no waiting)"),
            new TransportParameter(LATE_JOIN, String.valueOf(LATE_JOIN_DEFAULT),
                    "a new consumer first gets the last N PERSISTENT messages of its topic from a store (0: none)"));

    private JmsParameters() {
    }

    /** True when {@code name} is one of the JMS layer's parameters. */
    public static boolean isJmsParameter(String name) {
        for (TransportParameter p : ALL) {
            if (p.name().equals(name)) {
                return true;
            }
        }
        return false;
    }
}
