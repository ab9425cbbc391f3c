package org.fjm2.jms;

import jakarta.jms.JMSException;
import org.fjm2.jms.message.ObjectMessageAllowList;
import org.fjm2.jms.transport.ObjectTransportFactory;
import org.fjm2.jms.transport.TransportParameter;
import org.fjm2.jms.transport.TransportUrl;
import org.fjm2.jms.transport.ParameterValues;

import java.net.URI;
import java.util.Map;

/**
 * A parsed and validated connection URL: the transport factory of its scheme, the parameters meant for the
 * transport, and the JMS layer's own settings. Every problem becomes a JMSException naming the parameter.
 */
record ConnectionSettings(String url, URI uri, ObjectTransportFactory transportFactory,
                          Map<String, String> transportParameters, long batchLingerMicros, int maxBatchBytes,
                          int consumerQueueMessages, long consumerQueueBytes, OverflowPolicy overflowPolicy,
                          boolean consumerBackPressure, long sendTimeoutMillis, ObjectMessageAllowList allowList, String clientId,
                          int maxRedeliveries, boolean jmx, long clockSkewMillis, int storeQuorum,
                          int lateJoin) {

    static ConnectionSettings parse(String url) throws JMSException {
        try {
            return parseOrThrow(url);
        } catch (IllegalArgumentException e) {
            JMSException jms = new JMSException("bad FJM2 connection URL " + url + ": " + e.getMessage());
            jms.initCause(e);
            throw jms;
        }
    }

    private static ConnectionSettings parseOrThrow(String url) {
        TransportUrl parsed = TransportUrl.parse(url, JmsParameters::isJmsParameter,
                "the JMS layer knows " + jmsNames());
        Map<String, String> all = parsed.allParameters();
        long linger = ParameterValues.longValue(all, JmsParameters.BATCH_LINGER_MICROS, JmsParameters.BATCH_LINGER_MICROS_DEFAULT,
                0, 10_000_000);
        int maxBatch = (int) ParameterValues.bytesValue(all, JmsParameters.MAX_BATCH_BYTES,
                JmsParameters.MAX_BATCH_BYTES_DEFAULT,
                256, Integer.MAX_VALUE - 64);
        int queueMessages = ParameterValues.intValue(all, JmsParameters.CONSUMER_QUEUE_MESSAGES,
                JmsParameters.CONSUMER_QUEUE_MESSAGES_DEFAULT, 1, Integer.MAX_VALUE);
        long queueBytes = ParameterValues.bytesValue(all, JmsParameters.CONSUMER_QUEUE_BYTES,
                JmsParameters.CONSUMER_QUEUE_BYTES_DEFAULT, 1, Long.MAX_VALUE);
        OverflowPolicy policy = OverflowPolicy.fromParameter(
                all.getOrDefault(JmsParameters.CONSUMER_OVERFLOW, JmsParameters.CONSUMER_OVERFLOW_DEFAULT));
        boolean backPressure = ParameterValues.booleanValue(all, JmsParameters.CONSUMER_BACK_PRESSURE,
                JmsParameters.CONSUMER_BACK_PRESSURE_DEFAULT);
        long sendTimeout = ParameterValues.longValue(all, JmsParameters.SEND_TIMEOUT_MILLIS,
                JmsParameters.SEND_TIMEOUT_MILLIS_DEFAULT, 0, Long.MAX_VALUE / 2);
        ObjectMessageAllowList allowList = ObjectMessageAllowList.parse(all.getOrDefault(
                JmsParameters.OBJECT_MESSAGE_ALLOW_LIST, JmsParameters.OBJECT_MESSAGE_ALLOW_LIST_DEFAULT));
        String clientId = all.getOrDefault(JmsParameters.CLIENT_ID, JmsParameters.CLIENT_ID_DEFAULT);
        int redeliveries = ParameterValues.intValue(all, JmsParameters.MAX_REDELIVERIES,
                JmsParameters.MAX_REDELIVERIES_DEFAULT, 0, 1_000_000);
        boolean jmx = ParameterValues.booleanValue(all, JmsParameters.JMX, JmsParameters.JMX_DEFAULT);
        long clockSkew = ParameterValues.longValue(all, JmsParameters.CLOCK_SKEW_MILLIS,
                JmsParameters.CLOCK_SKEW_MILLIS_DEFAULT, 0, 86_400_000L);
        int storeQuorum = ParameterValues.intValue(all, JmsParameters.STORE_QUORUM,
                JmsParameters.STORE_QUORUM_DEFAULT, 0, JmsParameters.STORE_QUORUM_MAX);
        int lateJoin = ParameterValues.intValue(all, JmsParameters.LATE_JOIN, JmsParameters.LATE_JOIN_DEFAULT, 0,
                JmsParameters.LATE_JOIN_MAX);
        return new ConnectionSettings(url, parsed.uri(), parsed.factory(), parsed.transportParameters(), linger,
                maxBatch, queueMessages, queueBytes, policy, backPressure, sendTimeout, allowList,
                clientId.isEmpty() ? null : clientId, redeliveries, jmx, clockSkew, storeQuorum, lateJoin);
    }

    private static String jmsNames() {
        StringBuilder sb = new StringBuilder();
        for (TransportParameter p : JmsParameters.ALL) {
            sb.append(sb.length() == 0 ? "" : ", ").append(p.name());
        }
        return sb.toString();
    }
}
