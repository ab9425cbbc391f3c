package org.fjm2.spring.boot;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code fjm2.*} properties of an application: where its connections go. Every FJM2 URL parameter (see the
 * fjm2-core README) can be given either in {@link #url} or, one by one, under {@code fjm2.parameters.*}; a
 * parameter in both places is refused by the factory as given twice rather than silently picked.
 */
@ConfigurationProperties(prefix = Fjm2Properties.PREFIX)
public class Fjm2Properties {

    public static final String PREFIX = "fjm2";

    /**
     * Used when {@code fjm2.url} is not set: an in-JVM group, so that an application starts (and its tests run)
     * before it is given a network, as the Artemis starter starts an embedded broker. Nothing leaves the process.
     */
    public static final String DEFAULT_URL = "inmem://fjm2";

    /** The FJM2 URL, e.g. {@code norm://239.255.0.1:6003?interface=eth0&rate=100m}. */
    private String url = DEFAULT_URL;

    /** The client id of every connection (the URL parameter {@code clientID}); none by default. */
    private String clientId;

    /** More URL parameters, e.g. {@code fjm2.parameters.rate=1g}, appended to {@link #url}. */
    private Map<String, String> parameters = new LinkedHashMap<>();

    public String getUrl() {
        return url;
    }

    public void setUrl(String url) {
        this.url = url;
    }

    public String getClientId() {
        return clientId;
    }

    public void setClientId(String clientId) {
        this.clientId = clientId;
    }

    public Map<String, String> getParameters() {
        return parameters;
    }

    public void setParameters(Map<String, String> parameters) {
        this.parameters = parameters;
    }
}
