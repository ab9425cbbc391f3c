package org.fjm2.tunnel.admin;

import java.net.URI;
import java.time.Duration;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.Unpooled;
import org.fjm2.norm.fuzz.FuzzInput;
import org.fjm2.norm.fuzz.InputBounds;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Fuzz target: FJM2-Admin's advertisement as the daemon receives it on its tunnel port (anyone can send there).
 * A fuzzer cannot compute the HMAC under the token, so no fuzz input may be accepted, neither by the verifier nor by
 * the admin client; an advertisement made with the token from fuzzed fields must verify with those fields, and the
 * replay guard must take it once.
 */
class AdvertisementFuzzTest {

    private static final String TOKEN = "fuzz-admin-token-0123456789abcdef";

    /** A client that is never started: it only judges advertisements (a forged one never makes it fetch). */
    private static AdminClient client;

    @BeforeAll
    static void createClient() {
        client = new AdminClient(URI.create("http://127.0.0.1:9/"), TOKEN, "fuzz-node", "127.0.0.1", 9,
                Duration.ofMinutes(1), peers -> {
                    throw new AssertionError("a forged advertisement made the client fetch peers");
                });
    }

    @AfterAll
    static void closeClient() {
        client.close();
    }

    @FuzzTest
    void forgedAdvertisementsAreRejected(byte[] input) throws Exception {
        InputBounds.runWithinBounds(input, () -> {
            AdvertisementVerifier verifier = new AdvertisementVerifier(TOKEN);
            if (verifier.verify(input, 0, input.length) == AdvertisementVerifier.Result.VALID
                    || verifier.verify(Unpooled.wrappedBuffer(input)) == AdvertisementVerifier.Result.VALID
                    || client.offerAdvertisement(input)) {
                throw new AssertionError("an advertisement nobody made was accepted: " + InputBounds.describe(input));
            }
        });
    }

    /** Input: lastModified(64) nonce(64) clock offset(16, milliseconds, signed) of the advertisement. */
    @FuzzTest
    void authenticAdvertisementsVerifyOnce(byte[] input) throws Exception {
        FuzzInput in = new FuzzInput(input);
        long lastModified = in.u32() << 32 | in.u32();
        long nonce = in.u32() << 32 | in.u32();
        long offsetMillis = (short) in.u16();
        InputBounds.runWithinBounds(input, () -> {
            long now = System.currentTimeMillis();
            byte[] datagram = TestAdvertisements.make(TOKEN, lastModified, now + offsetMillis, nonce);
            AdvertisementVerifier verifier = new AdvertisementVerifier(TOKEN);
            if (verifier.verify(datagram, 0, datagram.length) != AdvertisementVerifier.Result.VALID
                    || verifier.lastModified() != lastModified || verifier.nonce() != nonce
                    || verifier.timestamp() != now + offsetMillis) {
                throw new AssertionError("an authentic advertisement did not verify with its fields: "
                        + InputBounds.describe(input));
            }
            ReplayGuard guard = new ReplayGuard(AdminClient.Options.DEFAULT_REPLAY_WINDOW.toMillis());
            if (guard.check(verifier.timestamp(), nonce, now) != ReplayGuard.Result.FRESH
                    || guard.check(verifier.timestamp(), nonce, now) != ReplayGuard.Result.REPLAYED) {
                throw new AssertionError("the replay guard did not take the advertisement once: "
                        + InputBounds.describe(input));
            }
        });
    }
}
