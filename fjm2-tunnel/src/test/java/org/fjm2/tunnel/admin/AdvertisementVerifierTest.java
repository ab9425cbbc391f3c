package org.fjm2.tunnel.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.SplittableRandom;
import org.fjm2.tunnel.admin.AdvertisementVerifier.Result;
import org.junit.jupiter.api.Test;

/** The advertisement codec on the daemon's side: round trip, forgery, truncation, replay, stale stamps. */
class AdvertisementVerifierTest {

    static final String TOKEN = "daemon-token-0123456789abcdef";

    @Test
    void roundTripsThroughBothEntryPoints() {
        long seed = System.nanoTime();
        SplittableRandom random = new SplittableRandom(seed);
        AdvertisementVerifier verifier = new AdvertisementVerifier(TOKEN);
        for (int i = 0; i < 100; i++) {
            long stamp = random.nextLong();
            long time = random.nextLong();
            long nonce = random.nextLong();
            byte[] datagram = TestAdvertisements.make(TOKEN, stamp, time, nonce);
            assertThat(verifier.verify(datagram, 0, datagram.length)).as("seed %d", seed).isEqualTo(Result.VALID);
            assertThat(verifier.lastModified()).isEqualTo(stamp);
            assertThat(verifier.timestamp()).isEqualTo(time);
            assertThat(verifier.nonce()).isEqualTo(nonce);

            ByteBuf buf = Unpooled.buffer(64).writeBytes(new byte[5]).writeBytes(datagram);
            buf.readerIndex(5);
            assertThat(verifier.verify(buf)).isEqualTo(Result.VALID);
            assertThat(buf.readerIndex()).as("indexes untouched").isEqualTo(5);
            assertThat(verifier.lastModified()).isEqualTo(stamp);
            buf.release();
        }
    }

    @Test
    void refusesForgedTruncatedAndForeignDatagrams() {
        long seed = System.nanoTime();
        SplittableRandom random = new SplittableRandom(seed);
        AdvertisementVerifier verifier = new AdvertisementVerifier(TOKEN);
        byte[] datagram = TestAdvertisements.make(TOKEN, 42, 43, 44);
        for (int bit = 64; bit < 48 * 8; bit++) {
            byte[] forged = datagram.clone();
            forged[bit / 8] ^= (byte) (1 << (bit % 8));
            assertThat(verifier.verify(forged, 0, 48)).as("bit %d", bit).isEqualTo(Result.BAD_MAC);
        }
        byte[] otherKey = TestAdvertisements.make("another-token-0123456789abc", 42, 43, 44);
        assertThat(verifier.verify(otherKey, 0, 48)).isEqualTo(Result.BAD_MAC);
        assertThat(verifier.verify(datagram, 0, 47)).isEqualTo(Result.NOT_AN_ADVERTISEMENT);
        assertThat(verifier.verify(new byte[49], 0, 49)).isEqualTo(Result.NOT_AN_ADVERTISEMENT);
        assertThat(verifier.verify(datagram, 1, 48)).isEqualTo(Result.NOT_AN_ADVERTISEMENT);
        byte[] version2 = datagram.clone();
        version2[4] = 2;
        assertThat(verifier.verify(version2, 0, 48)).isEqualTo(Result.UNSUPPORTED);
        for (int i = 0; i < 1000; i++) {
            byte[] noise = new byte[48];
            random.nextBytes(noise);
            assertThat(verifier.verify(noise, 0, 48)).as("seed %d", seed).isNotEqualTo(Result.VALID);
        }
    }

    @Test
    void replayGuardRefusesRepeatsAndStaleTimestamps() {
        ReplayGuard guard = new ReplayGuard(10_000);
        long now = 1_000_000;
        assertThat(guard.check(now, 1, now)).isEqualTo(ReplayGuard.Result.FRESH);
        assertThat(guard.check(now, 1, now + 5)).isEqualTo(ReplayGuard.Result.REPLAYED);
        assertThat(guard.check(now - 10_001, 2, now)).isEqualTo(ReplayGuard.Result.OUTSIDE_WINDOW);
        assertThat(guard.check(now + 10_001, 3, now)).isEqualTo(ReplayGuard.Result.OUTSIDE_WINDOW);
        assertThat(guard.check(now + 9_000, 4, now)).isEqualTo(ReplayGuard.Result.FRESH);
        // Long after, the old nonce is forgotten but its timestamp is outside the window.
        assertThat(guard.check(now, 1, now + 30_000)).isEqualTo(ReplayGuard.Result.OUTSIDE_WINDOW);
    }

    @Test
    void replayGuardStaysBounded() {
        ReplayGuard guard = new ReplayGuard(1_000_000);
        for (long nonce = 0; nonce < 3 * ReplayGuard.MAX_REMEMBERED; nonce++) {
            assertThat(guard.check(5, nonce, 5)).isEqualTo(ReplayGuard.Result.FRESH);
        }
        long recent = 3L * ReplayGuard.MAX_REMEMBERED - 1;
        assertThat(guard.check(5, recent, 5)).isEqualTo(ReplayGuard.Result.REPLAYED);
    }
}
