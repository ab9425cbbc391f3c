package org.fjm2.admin;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.ServletContext;

/**
 * What the servlets share, built by {@link AdminContextListener} and kept as a servlet context attribute.
 *
 * @param settings the configuration in force
 * @param tokens the accepted bearer tokens
 * @param registry the registry's owning agent
 * @param json the JSON mapper (thread-safe): strict about duplicate keys and trailing content
 * @param startedAt when the application started (epoch milliseconds)
 * @param refusals refused requests, counted and logged by reason
 */
record AdminRuntime(AdminSettings settings, TokenSet tokens, RegistryAgent registry, ObjectMapper json,
                    long startedAt, Refusals refusals) {

    static final String ATTRIBUTE = AdminRuntime.class.getName();

    static ObjectMapper newJsonMapper() {
        return new ObjectMapper()
                .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    }

    static AdminRuntime of(ServletContext context) {
        AdminRuntime runtime = (AdminRuntime) context.getAttribute(ATTRIBUTE);
        if (runtime == null) {
            throw new IllegalStateException("FJM2-Admin did not start; see the log of its start");
        }
        return runtime;
    }
}
