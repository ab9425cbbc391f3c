package org.fjm2.jms.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

class NameCacheTest {

    private static String read(NameCache cache, String text) {
        ByteBuf buf = Unpooled.buffer();
        buf.writeBytes("xx".getBytes(StandardCharsets.UTF_8));
        buf.writeBytes(text.getBytes(StandardCharsets.UTF_8));
        return cache.get(buf, 2, buf.readableBytes() - 2);
    }

    @Test
    void repeatedNamesComeBackAsTheSameInstance() {
        NameCache cache = new NameCache();
        String first = read(cache, "seq");
        assertThat(first).isEqualTo("seq");
        assertThat(read(cache, "seq")).isSameAs(first);
        assertThat(read(cache, "prix_€")).isEqualTo("prix_€");
    }

    @Test
    void everyNameDecodesCorrectlyWhateverTheCollisions() {
        NameCache cache = new NameCache();
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < NameCache.SLOTS * 4; i++) {
                assertThat(read(cache, "p" + i)).isEqualTo("p" + i);
            }
        }
        String longName = "n".repeat(NameCache.MAX_NAME_BYTES + 1);
        assertThat(read(cache, longName)).isEqualTo(longName);
        assertThat(read(cache, "")).isEmpty();
    }
}
