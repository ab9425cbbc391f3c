package org.fjm2.jms;

import jakarta.jms.JMSException;
import org.fjm2.jms.message.ObjectMessageAllowList;
import org.fjm2.jms.transport.ObjectTransportFactory;
import org.fjm2.jms.transport.ParameterValues;
import org.fjm2.jms.transport.TransportParameter;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * A parsed and validated connection URL: the transport factory of its scheme, the parameters meant for the
 * transport, and the JMS layer's own settings. Every problem becomes a JMSException naming the parameter.
 */
record ConnectionSettings(String url, URI uri, ObjectTransportFactory transportFactory,
                          Map<String, String> transportParameters, long batchLingerMicros, int maxBatchBytes,
                          int consumerQueueMessages, long consumerQueueBytes, OverflowPolicy overflowPolicy,
                          boolean consumerBackPressure, long sendTimeoutMillis, ObjectMessageAllowList allowList, String clientId,
                          int maxRedeliveries, boolean jmx, long clockSkewMillis) {

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
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("the URL is empty; expected e.g. norm://239.255.0.1:6003?interface=lo");
        }
        URI uri;
        try {
            uri = new URI(escapeLonePercents(url.trim()));
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
        if (uri.getScheme() == null) {
            throw new IllegalArgumentException("no scheme; expected e.g. norm://GROUP:PORT or inmem://NAME");
        }
        ObjectTransportFactory factory = transportFactory(uri.getScheme());
        Map<String, String> all = queryParameters(uri);
        Map<String, String> transport = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : all.entrySet()) {
            if (JmsParameters.isJmsParameter(e.getKey())) {
                continue;
            }
            boolean known = false;
            for (TransportParameter p : factory.parameters()) {
                known |= p.name().equals(e.getKey());
            }
            if (!known) {
                throw new IllegalArgumentException("unknown parameter '" + e.getKey() + "' (the " + factory.scheme()
                        + " transport knows " + names(factory) + "; the JMS layer knows " + jmsNames() + ")");
            }
            transport.put(e.getKey(), e.getValue());
        }
        factory.validate(uri, Collections.unmodifiableMap(transport));

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
        return new ConnectionSettings(url, uri, factory, Collections.unmodifiableMap(transport), linger, maxBatch,
                queueMessages, queueBytes, policy, backPressure, sendTimeout, allowList, clientId.isEmpty() ? null : clientId,
                redeliveries, jmx, clockSkew);
    }

    /** The transport factory registered for a scheme, through ServiceLoader. */
    static ObjectTransportFactory transportFactory(String scheme) {
        StringBuilder known = new StringBuilder();
        for (ClassLoader loader : new ClassLoader[] {Thread.currentThread().getContextClassLoader(),
                ConnectionSettings.class.getClassLoader()}) {
            if (loader == null) {
                continue;
            }
            for (ObjectTransportFactory f : ServiceLoader.load(ObjectTransportFactory.class, loader)) {
                if (f.scheme().equalsIgnoreCase(scheme)) {
                    return f;
                }
                if (known.indexOf(f.scheme()) < 0) {
                    known.append(known.length() == 0 ? "" : ", ").append(f.scheme());
                }
            }
        }
        throw new IllegalArgumentException("no transport for scheme '" + scheme + "' (available: " + known + ")");
    }

    /**
     * Users write a loss as {@code rxLoss=5%}, the way every FJM2 command takes it; in a URI a '%' must start an
     * escape ({@code %25}), so a '%' that starts none is taken for a literal one.
     */
    static String escapeLonePercents(String url) {
        return LONE_PERCENT.matcher(url).replaceAll("%25");
    }

    private static final java.util.regex.Pattern LONE_PERCENT = java.util.regex.Pattern.compile("%(?![0-9A-Fa-f]{2})");

    private static Map<String, String> queryParameters(URI uri) {
        Map<String, String> params = new LinkedHashMap<>();
        String query = uri.getRawQuery();
        if (query == null || query.isEmpty()) {
            return params;
        }
        for (String pair : query.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            if (params.put(name, value) != null) {
                throw new IllegalArgumentException("parameter '" + name + "' given twice");
            }
        }
        return params;
    }

    private static String names(ObjectTransportFactory factory) {
        StringBuilder sb = new StringBuilder();
        for (TransportParameter p : factory.parameters()) {
            sb.append(sb.length() == 0 ? "" : ", ").append(p.name());
        }
        return sb.length() == 0 ? "none" : sb.toString();
    }

    private static String jmsNames() {
        StringBuilder sb = new StringBuilder();
        for (TransportParameter p : JmsParameters.ALL) {
            sb.append(sb.length() == 0 ? "" : ", ").append(p.name());
        }
        return sb.toString();
    }
}
