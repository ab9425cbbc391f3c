package org.fjm2.tunnel.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What the daemon's admin client reads from files and from the admin's list, checked before use. */
class AdminInputsTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"224.0.0.1", "239.255.0.1", "ff02::1", "255.255.255.255", "0.0.0.0", "0.9.9.9", "::",
        "::ffff:239.1.1.1", "::ffff:0.0.0.0", "127.0.0.1", "::1", "::ffff:127.0.0.1", "::127.0.0.1"})
    void neverStreamsToMulticastBroadcastUnspecifiedOrLoopback(String literal) throws Exception {
        assertThat(PeerDestinations.refusal(InetAddress.getByName(literal), false)).as(literal).isNotNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"10.0.0.1", "192.0.2.7", "2001:db8::1", "fe80::1", "::ffff:192.0.2.7", "223.1.1.1"})
    void streamsToOrdinaryUnicastAddresses(String literal) throws Exception {
        assertThat(PeerDestinations.refusal(InetAddress.getByName(literal), false)).as(literal).isNull();
    }

    @Test
    void loopbackOnlyWhenTheAdminIsOnLoopbackToo() throws Exception {
        assertThat(PeerDestinations.refusal(InetAddress.getByName("127.0.0.1"), true)).isNull();
        assertThat(PeerDestinations.refusal(InetAddress.getByName("127.0.0.1"), false)).contains("loopback");
        assertThat(PeerDestinations.refusal(InetAddress.getByName("239.1.1.1"), true)).contains("multicast");
    }

    @Test
    void readsTheTokenFileAsBytes() throws Exception {
        Path file = dir.resolve("token");
        Files.write(file, "\r\n  admin-token-0123456789\r\n".getBytes(StandardCharsets.US_ASCII));
        assertThat(AdminTokenFile.read(file)).isEqualTo("admin-token-0123456789");
        byte[] binary = {'k', 'e', 'y', (byte) 0xff, 0x00, (byte) 0xc3, 0x28, 'z'};
        Files.write(file, binary);
        assertThatThrownBy(() -> AdminTokenFile.read(file)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("byte 3").hasMessageContaining("0xff").hasMessageContaining("printable ASCII");
        Files.write(file, new byte[] {'\n', ' '});
        assertThatThrownBy(() -> AdminTokenFile.read(file)).hasMessageContaining("empty");
        assertThatThrownBy(() -> AdminTokenFile.read(dir.resolve("missing"))).hasMessageContaining("cannot read");
    }
}
