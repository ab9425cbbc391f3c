package org.fjm2.admin.testing;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * An independent reading of the advertisement, written from the README's table rather than from the production
 * codec, so that the tests check the documented format and not the code against itself.
 *
 * @param lastModified the list's stamp carried
 * @param timestamp when the admin made the datagram
 * @param nonce its nonce
 */
public record AdvertisementCheck(long lastModified, long timestamp, long nonce) {

    /** Verifies magic, version, type, length and the truncated HMAC-SHA256 under {@code token}; null if any fails. */
    public static AdvertisementCheck verify(byte[] datagram, int length, String token) {
        if (length != 48) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(datagram, 0, length);
        if (b.getInt(0) != 0x464A4D41 || b.get(4) != 1 || b.get(5) != 1) {
            return null;
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(token.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update(datagram, 0, 32);
            byte[] expected = Arrays.copyOf(mac.doFinal(), 16);
            if (!MessageDigest.isEqual(expected, Arrays.copyOfRange(datagram, 32, 48))) {
                return null;
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        return new AdvertisementCheck(b.getLong(8), b.getLong(16), b.getLong(24));
    }
}
