package org.fjm2.jms.transport;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * Creates transports for one URL scheme ({@code inmem}, {@code norm}). Implementations are found with
 * {@link java.util.ServiceLoader} (register them in {@code META-INF/services/org.fjm2.jms.transport.ObjectTransportFactory})
 * and must have a public no-argument constructor.
 */
public interface ObjectTransportFactory {

    /** The URL scheme this factory serves, lower case, e.g. {@code "norm"}. */
    String scheme();

    /** Names, defaults and one-line descriptions of the URL parameters this transport understands. */
    List<TransportParameter> parameters();

    /**
     * Checks the URL and the transport's parameters without opening anything.
     *
     * @param uri                 the whole connection URL (its query holds JMS parameters as well: ignore it)
     * @param transportParameters only the parameters meant for the transport (those named by {@link #parameters()})
     * @throws IllegalArgumentException naming the parameter (or the URL part) when a value is bad
     */
    void validate(URI uri, Map<String, String> transportParameters);

    /** Opens a transport; the parameters were validated by {@link #validate}. */
    ObjectTransport create(URI uri, Map<String, String> transportParameters) throws IOException;
}
