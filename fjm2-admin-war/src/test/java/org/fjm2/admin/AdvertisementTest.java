package org.fjm2.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.fjm2.admin.testing.AdvertisementCheck;
import org.junit.jupiter.api.Test;

/** The encoder against an independent reading of the documented format. */
class AdvertisementTest {

    static final String TOKEN = "advert-token-0123456789abcdef";

    static byte[] encode(String token, long lastModified, long timestamp, long nonce) {
        ByteBuffer buffer = ByteBuffer.allocate(Advertisement.LENGTH);
        new Advertisement(TokenSet.parse(token, "test")).encode(buffer, 0, lastModified, timestamp, nonce);
        assertThat(buffer.remaining()).isEqualTo(48);
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }

    @Test
    void encodesTheDocumentedLayout() {
        byte[] datagram = encode(TOKEN, 1_700_000_000_123L, 1_700_000_000_456L, 0x0102030405060708L);
        AdvertisementCheck read = AdvertisementCheck.verify(datagram, datagram.length, TOKEN);
        assertThat(read).isEqualTo(new AdvertisementCheck(1_700_000_000_123L, 1_700_000_000_456L, 0x0102030405060708L));
        assertThat(datagram[0]).isEqualTo((byte) 'F');
        assertThat(datagram[3]).isEqualTo((byte) 'A');
        assertThat(datagram[6]).isZero();
        assertThat(datagram[7]).isZero();
    }

    @Test
    void anyFlippedBitOrOtherTokenFailsVerification() {
        long seed = System.nanoTime();
        SplittableRandom random = new SplittableRandom(seed);
        byte[] datagram = encode(TOKEN, random.nextLong(), random.nextLong(), random.nextLong());
        assertThat(AdvertisementCheck.verify(datagram, 48, "another-token-0123456789abc")).isNull();
        for (int bit = 0; bit < 48 * 8; bit++) {
            byte[] forged = datagram.clone();
            forged[bit / 8] ^= (byte) (1 << (bit % 8));
            assertThat(AdvertisementCheck.verify(forged, 48, TOKEN)).as("bit %d, seed %d", bit, seed).isNull();
        }
    }

    @Test
    void usesTheKeyOfTheChosenToken() {
        TokenSet two = TokenSet.parse("first-token-0123456789abc\nsecond-token-0123456789ab", "test");
        ByteBuffer buffer = ByteBuffer.allocate(Advertisement.LENGTH);
        new Advertisement(two).encode(buffer, 1, 5, 6, 7);
        byte[] bytes = new byte[48];
        buffer.get(bytes);
        assertThat(AdvertisementCheck.verify(bytes, 48, "second-token-0123456789ab")).isNotNull();
        assertThat(AdvertisementCheck.verify(bytes, 48, "first-token-0123456789abc")).isNull();
    }
}
