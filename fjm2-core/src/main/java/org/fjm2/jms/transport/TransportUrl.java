package org.fjm2.jms.transport;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * A connection URL split into what the transport of its scheme takes and what its owner takes: a JMS connection
 * (the JMS layer's parameters) and the store (fjm2-store) read the same URLs, so that every member of a group is
 * configured with one string. Every problem is an IllegalArgumentException naming the parameter or URL part.
 *
 * @param uri                 the parsed URL
 * @param factory             the transport factory registered for its scheme
 * @param transportParameters the parameters the transport knows, validated by it
 * @param allParameters       every parameter of the query, the owner's included
 */
public record TransportUrl(URI uri, ObjectTransportFactory factory, Map<String, String> transportParameters,
                           Map<String, String> allParameters) {

    /**
     * Users write a loss as {@code rxLoss=5%}, the way every FJM2 command takes it; in a URI a '%' must start an
     * escape ({@code %25}), so a '%' that starts none is taken for a literal one.
     */
    private static final Pattern LONE_PERCENT = Pattern.compile("%(?![0-9A-Fa-f]{2})");

    /**
     * @param ownerParameter the parameters the owner reads itself (the transport is not asked about them)
     * @param ownerNames     the owner's parameter names, for the message about an unknown one
     */
    public static TransportUrl parse(String url, Predicate<String> ownerParameter, String ownerNames) {
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("the URL is empty; expected e.g. norm://239.255.0.1:6003?interface=lo");
        }
        URI uri;
        try {
            uri = new URI(LONE_PERCENT.matcher(url.trim()).replaceAll("%25"));
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
        if (uri.getScheme() == null) {
            throw new IllegalArgumentException("no scheme; expected e.g. norm://GROUP:PORT or inmem://NAME");
        }
        ObjectTransportFactory factory = factory(uri.getScheme());
        Map<String, String> all = queryParameters(uri);
        Map<String, String> transport = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : all.entrySet()) {
            if (ownerParameter.test(e.getKey())) {
                continue;
            }
            boolean known = false;
            for (TransportParameter p : factory.parameters()) {
                known |= p.name().equals(e.getKey());
            }
            if (!known) {
                throw new IllegalArgumentException("unknown parameter '" + e.getKey() + "' (the " + factory.scheme()
                        + " transport knows " + names(factory) + "; " + ownerNames + ")");
            }
            transport.put(e.getKey(), e.getValue());
        }
        Map<String, String> transportParameters = Collections.unmodifiableMap(transport);
        factory.validate(uri, transportParameters);
        return new TransportUrl(uri, factory, transportParameters, Collections.unmodifiableMap(all));
    }

    /** The transport factory registered for a scheme, through ServiceLoader. */
    public static ObjectTransportFactory factory(String scheme) {
        StringBuilder known = new StringBuilder();
        for (ClassLoader loader : new ClassLoader[] {Thread.currentThread().getContextClassLoader(),
                TransportUrl.class.getClassLoader()}) {
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
}
