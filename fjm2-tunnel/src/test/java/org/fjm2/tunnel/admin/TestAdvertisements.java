package org.fjm2.tunnel.admin;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** Makes advertisements as the README documents them, independently of FJM2-Admin's encoder. */
final class TestAdvertisements {

    private TestAdvertisements() {
    }

    static byte[] make(String token, long lastModified, long timestamp, long nonce) {
        ByteBuffer b = ByteBuffer.allocate(48);
        b.putInt(0x464A4D41).put((byte) 1).put((byte) 1).putShort((short) 0)
                .putLong(lastModified).putLong(timestamp).putLong(nonce);
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(token.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update(b.array(), 0, 32);
            b.put(mac.doFinal(), 0, 16);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        return b.array();
    }
}
