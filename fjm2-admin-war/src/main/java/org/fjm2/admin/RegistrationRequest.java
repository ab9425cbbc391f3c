package org.fjm2.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A validated {@code POST /api/nodes} body: {@code {"id": "...", "host": "...", "port": N}}. Unknown members are
 * ignored, so that newer daemons may send more; the three known ones must be present and valid.
 *
 * @param id the node's id
 * @param host where its peers reach it
 * @param port its tunnel's UDP port
 */
record RegistrationRequest(String id, String host, int port) {

    /** Thrown for a body that must be answered with 400; the message says what is wrong. */
    static final class Invalid extends Exception {
        private final Refusals.Reason reason;

        Invalid(String message) {
            this(message, Refusals.Reason.BAD_REQUEST);
        }

        Invalid(String message, Refusals.Reason reason) {
            super(message, null, false, false);
            this.reason = reason;
        }

        /** Under which reason the refusal is counted. */
        Refusals.Reason reason() {
            return reason;
        }
    }

    /**
     * Parses and checks a body.
     *
     * @param allowLoopback accept loopback hosts ({@link AdminSettings#ALLOW_LOOPBACK})
     */
    static RegistrationRequest parse(ObjectMapper mapper, byte[] body, boolean allowLoopback) throws Invalid {
        JsonNode tree;
        try {
            tree = mapper.readTree(body);
        } catch (JsonProcessingException e) {
            throw new Invalid("malformed JSON: " + e.getOriginalMessage());
        } catch (java.io.IOException e) {
            throw new Invalid("unreadable body");
        }
        if (tree == null || !tree.isObject()) {
            throw new Invalid("the body must be a JSON object {\"id\", \"host\", \"port\"}");
        }
        String id = text(tree, "id");
        String host = text(tree, "host");
        JsonNode port = tree.get("port");
        if (port == null || !port.isIntegralNumber() || !port.canConvertToLong()) {
            throw new Invalid("port must be an integer");
        }
        check(NodeAddressRules.checkId(id));
        check(NodeAddressRules.checkHost(host));
        check(NodeAddressRules.checkPort(port.longValue()));
        String destination = NodeAddressRules.checkDestination(host, allowLoopback);
        if (destination != null) {
            throw new Invalid(destination, Refusals.Reason.FORBIDDEN_ADDRESS);
        }
        return new RegistrationRequest(id, host, port.intValue());
    }

    private static String text(JsonNode tree, String name) throws Invalid {
        JsonNode value = tree.get(name);
        if (value == null || !value.isTextual()) {
            throw new Invalid(name + " is missing or not a string");
        }
        return value.textValue();
    }

    private static void check(String problem) throws Invalid {
        if (problem != null) {
            throw new Invalid(problem);
        }
    }
}
