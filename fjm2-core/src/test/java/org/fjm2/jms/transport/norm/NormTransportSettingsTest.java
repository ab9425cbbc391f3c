package org.fjm2.jms.transport.norm;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.Map;

import org.fjm2.norm.api.NormConfig;
import org.junit.jupiter.api.Test;

/** How norm:// URL parameters become the engine's settings where a default is derived rather than fixed. */
class NormTransportSettingsTest {

    private static NormConfig config(String query) {
        URI uri = URI.create("norm://239.255.0.1:6003");
        Map<String, String> p = new java.util.HashMap<>();
        for (String kv : query.split("&")) {
            if (!kv.isEmpty()) {
                String[] parts = kv.split("=", 2);
                p.put(parts[0], parts[1]);
            }
        }
        return NormTransportFactory.config(uri, p).config();
    }

    @Test
    void segmentSizeFollowsTheInterfaceMtuUnlessSet() throws Exception {
        int loMtu = java.net.NetworkInterface.getByName("lo").getMTU();
        int expected = Math.min(NormConfig.MAX_SEGMENT_SIZE, loMtu - 28 - NormConfig.DATAGRAM_HEADER_ROOM);
        assertThat(config("interface=lo").segmentSize()).as("lo MTU %d", loMtu).isEqualTo(expected);
        assertThat(config("interface=lo&segmentSize=auto").segmentSize()).isEqualTo(expected);
        assertThat(config("interface=lo&segmentSize=1400").segmentSize()).isEqualTo(1400);
        assertThat(config("").segmentSize()).as("no interface named").isEqualTo(NormConfig.DEFAULT_SEGMENT_SIZE);
    }

    @Test
    void groupSecurityLeavesRoomForItsOverheadInAutomaticSegments(@org.junit.jupiter.api.io.TempDir
                                                                  java.nio.file.Path dir) throws Exception {
        java.nio.file.Path key = dir.resolve("group.key");
        java.nio.file.Files.writeString(key, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
        java.nio.file.Files.setPosixFilePermissions(key, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        int plain = config("interface=lo").segmentSize();
        int sealed = config("interface=lo&security=seal&keyFile=" + key).segmentSize();
        assertThat(sealed).isLessThanOrEqualTo(plain);
        assertThat(sealed + NormConfig.DATAGRAM_HEADER_ROOM + 28 + 28).as("a sealed datagram fits one UDP payload")
                .isLessThanOrEqualTo(65_507);
    }

    /** Issue 19: a URL that sets nothing gets the rate search under receiver-paced flow control, up to 10g. */
    @Test
    void byDefaultTheRateIsFoundUnderFlowControlUnlessFixedOrAdaptiveIsAsked() {
        NormConfig defaults = config("interface=lo");
        assertThat(defaults.rateControl()).isEqualTo(NormConfig.RateControl.AUTO);
        assertThat(defaults.receiverFlowControl()).isTrue();
        assertThat(defaults.txRate()).isEqualTo(10_000_000_000L);
        assertThat(defaults.windowSilence()).isEqualTo(NormConfig.DEFAULT_WINDOW_SILENCE);
        assertThat(config("interface=lo&rateControl=fixed").rateControl()).isEqualTo(NormConfig.RateControl.FIXED);
        assertThat(config("interface=lo&rateControl=adaptive").rateControl())
                .isEqualTo(NormConfig.RateControl.ADAPTIVE);
        assertThat(config("interface=lo&rateControl=cc").rateControl()).isEqualTo(NormConfig.RateControl.CC);
        assertThat(config("interface=lo&flowControl=false&windowSilence=0.5").receiverFlowControl()).isFalse();
        assertThat(config("interface=lo&windowSilence=0.5").windowSilence()).isEqualTo(java.time.Duration.ofMillis(500));
    }

    /** The URL reads quantities in the one grammar of every FJM2 command (issue 20): units or plain numbers. */
    @Test
    void quantitiesTakeUnits() {
        assertThat(config("rate=100mbit").txRate()).isEqualTo(100_000_000L);
        assertThat(config("rate=100m").txRate()).isEqualTo(100_000_000L);
        assertThat(config("rate=1g").txRate()).isEqualTo(1_000_000_000L);
        assertThat(config("grtt=2ms").grttInitial()).isEqualTo(java.time.Duration.ofMillis(2));
        assertThat(config("grtt=0.002").grttInitial()).isEqualTo(java.time.Duration.ofMillis(2));
        assertThat(config("senderTimeout=30s").senderTimeout()).isEqualTo(java.time.Duration.ofSeconds(30));
        assertThat(config("maxHold=1.5").maxHold()).isEqualTo(java.time.Duration.ofMillis(1500));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> config("rate=10MB/s"))
                .hasMessageContaining("bytes per second");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> config("rxLoss=150%"))
                .hasMessageContaining("more than 100%");
    }

    @Test
    void sizesTakeUnits() {
        assertThat(config("cacheBytes=64m").txCacheBytes()).isEqualTo(64L << 20);
        assertThat(config("maxObjectSize=1MiB").maxObjectSize()).isEqualTo(1 << 20);
        assertThat(config("maxObjectSize=1m&receiveBufferBytes=256m").receiveBufferBytes()).isEqualTo(256L << 20);
        assertThat(config("segmentSize=8k").segmentSize()).isEqualTo(8192);
        assertThat(config("cacheBytes=8388608").txCacheBytes()).isEqualTo(8_388_608L);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> config("segmentSize=1m"))
                .hasMessageContaining("segmentSize");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> config("cacheBytes=lots"))
                .hasMessageContaining("cacheBytes");
    }
}
