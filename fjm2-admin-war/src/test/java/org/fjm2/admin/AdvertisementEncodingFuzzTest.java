package org.fjm2.admin;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.fjm2.admin.fuzz.InputBounds;
import org.fjm2.admin.testing.AdvertisementCheck;

/**
 * Fuzz target: the advertisement FJM2-Admin multicasts. The admin only writes it (daemons read it: fjm2-tunnel's
 * AdvertisementFuzzTest fuzzes that side), so this target drives the encoder with fuzzed fields and tokens and
 * reads every datagram back with an independent reader of the documented format: the fields must come back, under
 * the chosen token only.
 */
class AdvertisementEncodingFuzzTest {

    /**
     * Input: lastModified(64) timestamp(64) nonce(64), then the token file's text (one or more tokens; two fixed
     * ones when it holds none the admin accepts).
     */
    @FuzzTest
    void encodedFieldsReadBack(byte[] input) throws Exception {
        ByteBuffer fields = ByteBuffer.allocate(24).put(input, 0, Math.min(24, input.length)).flip();
        fields.limit(24);
        long lastModified = fields.getLong(0);
        long timestamp = fields.getLong(8);
        long nonce = fields.getLong(16);
        String tokenText = input.length > 24 ? new String(input, 24, input.length - 24, StandardCharsets.UTF_8) : "";
        TokenSet tokens;
        try {
            tokens = TokenSet.parse(tokenText, "fuzz input");
        } catch (IllegalArgumentException refused) {
            tokens = TokenSet.parse("fuzz-token-one-0123456789 fuzz-token-two-0123456789", "fixed");
        }
        TokenSet chosen = tokens;
        InputBounds.runWithinBounds(input, () -> {
            Advertisement advertisement = new Advertisement(chosen);
            ByteBuffer datagram = ByteBuffer.allocate(Advertisement.LENGTH);
            for (int i = 0; i < chosen.size(); i++) {
                advertisement.encode(datagram, i, lastModified, timestamp, nonce);
                byte[] bytes = new byte[datagram.remaining()];
                datagram.get(bytes);
                String token = new String(chosen.key(i), StandardCharsets.UTF_8);
                AdvertisementCheck read = AdvertisementCheck.verify(bytes, bytes.length, token);
                if (!new AdvertisementCheck(lastModified, timestamp, nonce).equals(read)) {
                    throw new AssertionError("the advertisement did not read back: " + read + " from "
                            + InputBounds.describe(input));
                }
                if (AdvertisementCheck.verify(bytes, bytes.length, token + "x") != null) {
                    throw new AssertionError("the advertisement verified under another token");
                }
            }
        });
    }
}
