package org.fjm2.admin;

import java.nio.charset.StandardCharsets;
import java.util.List;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.fjm2.admin.fuzz.InputBounds;

/**
 * Fuzz target: what FJM2-Admin parses from a request before it has checked anything but the bearer token: the
 * {@code POST /api/nodes} body ({@link RegistrationRequest}, with the servlet's own JSON mapper), the node id of a
 * {@code DELETE} path, the {@code If-None-Match} header of a {@code GET}, and token text. Only the documented
 * refusals may come out ({@link RegistrationRequest.Invalid} for a body, a problem string for an id or host,
 * IllegalArgumentException for token text), and what is accepted must satisfy the rules it was checked against.
 */
class RegistrationFuzzTest {

    private static final ObjectMapper JSON = AdminRuntime.newJsonMapper();
    private static final RegistrySnapshot SNAPSHOT = new RegistrySnapshot(1_732_000_000_000L, List.of());
    private static final TokenSet TOKENS = TokenSet.parse("fuzz-token-one-0123456789 fuzz-token-two-0123456789",
            "fixed");

    @FuzzTest
    void registrationBodies(byte[] body) throws Exception {
        InputBounds.runWithinBounds(body, () -> {
            RegistrationRequest request;
            try {
                request = RegistrationRequest.parse(JSON, body, false);
            } catch (RegistrationRequest.Invalid expected) {
                return;     // answered with 400
            }
            if (NodeAddressRules.checkId(request.id()) != null || NodeAddressRules.checkHost(request.host()) != null
                    || NodeAddressRules.checkPort(request.port()) != null
                    || NodeAddressRules.checkDestination(request.host(), false) != null) {
                throw new AssertionError("accepted a registration its own rules refuse: " + request);
            }
        });
    }

    /** What the token rule says: "Bearer " (any case), then one of the tokens, surrounding white space ignored. */
    private static boolean presentsKnownToken(String header) {
        String prefix = "Bearer ";
        if (header.length() <= prefix.length() || header.length() > prefix.length() + TokenSet.MAX_TOKEN_LENGTH
                || !header.regionMatches(true, 0, prefix, 0, prefix.length())) {
            return false;
        }
        String presented = header.substring(prefix.length()).trim();
        for (int i = 0; i < TOKENS.size(); i++) {
            if (presented.equals(new String(TOKENS.key(i), StandardCharsets.UTF_8))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The input as text: a DELETE path's id, a host, an If-None-Match header, an Authorization header, and a token
     * file's content.
     */
    @FuzzTest
    void pathsHeadersAndTokens(byte[] input) throws Exception {
        String text = new String(input, StandardCharsets.UTF_8);
        InputBounds.runWithinBounds(input, () -> {
            NodeAddressRules.checkId(text);
            NodeAddressRules.checkHost(text);
            SNAPSHOT.matches(text);
            for (String header : new String[] {text, "Bearer " + text}) {
                if ((TOKENS.match(header) >= 0) != presentsKnownToken(header)) {
                    throw new AssertionError("Authorization header judged wrongly: " + header);
                }
            }
            try {
                TokenSet tokens = TokenSet.parse(text, "fuzz input");
                for (int i = 0; i < tokens.size(); i++) {
                    if (tokens.key(i).length < TokenSet.MIN_TOKEN_LENGTH) {
                        throw new AssertionError("accepted a token shorter than " + TokenSet.MIN_TOKEN_LENGTH);
                    }
                }
            } catch (IllegalArgumentException expected) {
                // a token file the admin refuses to start with, with its reason
            }
        });
    }
}
