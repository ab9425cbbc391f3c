package org.fjm2.spring.boot;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** The connection URL the properties describe: {@code fjm2.url} plus {@code fjm2.client-id} and {@code fjm2.parameters}. */
final class Fjm2Urls {

    /** The URL parameter that carries the client id (see the fjm2-core README). */
    static final String CLIENT_ID_PARAMETER = "clientID";

    private Fjm2Urls() {
    }

    static String of(Fjm2Properties properties) {
        String url = properties.getUrl();
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException(Fjm2Properties.PREFIX + ".url is empty");
        }
        Map<String, String> extra = new LinkedHashMap<>(properties.getParameters());
        if (properties.getClientId() != null) {
            extra.put(CLIENT_ID_PARAMETER, properties.getClientId());
        }
        StringBuilder b = new StringBuilder(url.strip());
        char separator = url.indexOf('?') < 0 ? '?' : '&';
        for (Map.Entry<String, String> e : extra.entrySet()) {
            b.append(separator).append(encode(e.getKey())).append('=').append(encode(e.getValue()));
            separator = '&';
        }
        return b.toString();
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
