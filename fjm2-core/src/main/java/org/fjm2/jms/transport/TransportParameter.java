package org.fjm2.jms.transport;

import java.util.Objects;

/**
 * One URL parameter a transport understands.
 *
 * @param name         the query parameter name, case-sensitive
 * @param defaultValue the value used when the URL does not set it, as text ({@code ""} when there is none)
 * @param description  one line for users (shown in the README table and in tool help)
 */
public record TransportParameter(String name, String defaultValue, String description) {
    public TransportParameter {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(defaultValue, "defaultValue");
        Objects.requireNonNull(description, "description");
    }
}
