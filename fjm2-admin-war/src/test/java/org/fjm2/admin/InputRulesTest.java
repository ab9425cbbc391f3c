package org.fjm2.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Validation of node addresses, settings and tokens. */
class InputRulesTest {

    @ParameterizedTest
    @ValueSource(strings = {"localhost", "gw-1.example.org", "example.org.", "10.0.0.1", "255.255.255.255", "::1",
        "2001:db8::7", "fe80:0:0:0:0:0:0:1", "::ffff:192.0.2.1", "a"})
    void acceptsHostNamesAndLiterals(String host) {
        assertThat(NodeAddressRules.checkHost(host)).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "-bad.example", "bad-.example", "a..b", "under_score.org", "300.1.1.1", "1.2.3",
        "1:2:3:4:5:6:7:8:9", "2001:db8::7::1", "[::1]", "fe80::1%eth0", "host:80", "évil.org", "a;b"})
    void refusesEverythingElse(String host) {
        assertThat(NodeAddressRules.checkHost(host)).isNotNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1=loopback", "127.1.2.3=loopback", "::1=loopback", "0:0:0:0:0:0:0:1=loopback",
        "::ffff:127.0.0.1=loopback", "::127.0.0.1=loopback", "localhost=loopback", "LocalHost.=loopback",
        "gw.localhost=loopback", "224.0.0.1=multicast", "239.255.0.1=multicast", "ff02::1=multicast",
        "ff0e::1234=multicast", "::ffff:239.1.2.3=multicast", "255.255.255.255=broadcast",
        "::ffff:255.255.255.255=broadcast", "0.0.0.0=unspecified", "0.1.2.3=unspecified", "::=unspecified",
        "0:0:0:0:0:0:0:0=unspecified"})
    void refusesDestinationsNoDaemonMaySendTo(String hostAndKind) {
        String host = hostAndKind.substring(0, hostAndKind.lastIndexOf('='));
        String kind = hostAndKind.substring(hostAndKind.lastIndexOf('=') + 1);
        assertThat(NodeAddressRules.checkHost(host)).as("syntax of %s", host).isNull();
        assertThat(NodeAddressRules.checkDestination(host, false)).as(host).contains(kind, "never sent");
        if (kind.equals("loopback")) {
            assertThat(NodeAddressRules.checkDestination(host, true)).as("%s with loopback allowed", host).isNull();
        } else {
            assertThat(NodeAddressRules.checkDestination(host, true)).as("%s with loopback allowed", host)
                    .contains(kind);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"10.0.0.1", "192.0.2.1", "8.8.8.8", "2001:db8::7", "fe80::1", "::ffff:192.0.2.1",
        "gw-1.example.org", "localhost.example.org", "223.255.255.255", "240.0.0.1"})
    void acceptsEveryOtherDestination(String host) {
        assertThat(NodeAddressRules.checkDestination(host, false)).as(host).isNull();
    }

    @Test
    void boundsIdsAndPorts() {
        assertThat(NodeAddressRules.checkId("lan-a.gw_1:x")).isNull();
        assertThat(NodeAddressRules.checkId("a".repeat(64))).isNull();
        assertThat(NodeAddressRules.checkId("a".repeat(65))).isNotNull();
        assertThat(NodeAddressRules.checkId("-lead")).isNotNull();
        assertThat(NodeAddressRules.checkId("a/b")).isNotNull();
        assertThat(NodeAddressRules.checkId(null)).isNotNull();
        assertThat(NodeAddressRules.checkPort(1)).isNull();
        assertThat(NodeAddressRules.checkPort(65535)).isNull();
        assertThat(NodeAddressRules.checkPort(0)).isNotNull();
        assertThat(NodeAddressRules.checkPort(65536)).isNotNull();
    }

    @Test
    void parsesDurations() {
        assertThat(AdminSettings.parseDuration("90s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(AdminSettings.parseDuration("2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(AdminSettings.parseDuration("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(AdminSettings.parseDuration("1h")).isEqualTo(Duration.ofHours(1));
        assertThat(AdminSettings.parseDuration("30")).isEqualTo(Duration.ofSeconds(30));
        assertThat(AdminSettings.parseDuration("PT5S")).isEqualTo(Duration.ofSeconds(5));
        assertThatThrownBy(() -> AdminSettings.parseDuration("soon")).hasMessageContaining("not a duration");
        assertThatThrownBy(() -> AdminSettings.parseDuration("-5s")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void readsSettingsWithDefaultsAndNamesTheBadOne() {
        AdminSettings s = AdminSettings.read(Map.of(AdminSettings.TOKENS, "x".repeat(16))::get);
        assertThat(s.expiry()).isEqualTo(AdminSettings.DEFAULT_EXPIRY);
        assertThat(s.advertiseInterval()).isEqualTo(AdminSettings.DEFAULT_ADVERTISE_INTERVAL);
        assertThat(s.maxBodyBytes()).isEqualTo(4096);
        assertThat(s.dataDir()).isEqualTo(AdminSettings.defaultDataDir());
        assertThat(s.toString()).as("tokens never printed").doesNotContain("x".repeat(16)).contains("hidden");
        assertThat(s.statusPage()).as("the page lists addresses: token by default")
                .isEqualTo(AdminSettings.StatusPageAccess.TOKEN);
        assertThat(s.allowLoopback()).isFalse();
        assertThat(AdminSettings.read(Map.of(AdminSettings.TOKENS, "x".repeat(16), AdminSettings.STATUS_PAGE,
                "Public")::get).statusPage()).isEqualTo(AdminSettings.StatusPageAccess.PUBLIC);
        assertThat(AdminSettings.read(Map.of(AdminSettings.TOKENS, "x".repeat(16), AdminSettings.STATUS_PAGE,
                "off")::get).statusPage()).isEqualTo(AdminSettings.StatusPageAccess.OFF);
        assertThatThrownBy(() -> AdminSettings.read(Map.of(AdminSettings.TOKENS, "x".repeat(16),
                AdminSettings.STATUS_PAGE, "true")::get)).hasMessageContaining("public, token or off");
        assertThatThrownBy(() -> AdminSettings.read(Map.<String, String>of()::get))
                .hasMessageContaining("no token configured");
        assertThatThrownBy(() -> AdminSettings.read(
                Map.of(AdminSettings.TOKENS, "x".repeat(16), AdminSettings.MAX_NODES, "-1")::get))
                .hasMessageContaining(AdminSettings.MAX_NODES);
    }

    @Test
    void matchesTokensAndRefusesWeakOnes() {
        TokenSet tokens = TokenSet.parse("# comment\nfirst-token-0123456789 # trailing\nsecond-token-012345678", "t");
        assertThat(tokens.size()).isEqualTo(2);
        assertThat(tokens.match("Bearer first-token-0123456789")).isZero();
        assertThat(tokens.match("bearer second-token-012345678")).isEqualTo(1);
        assertThat(tokens.match("Bearer first-token-012345678")).isEqualTo(-1);
        assertThat(tokens.match("first-token-0123456789")).isEqualTo(-1);
        assertThat(tokens.match(null)).isEqualTo(-1);
        assertThat(tokens.toString()).doesNotContain("first");
        assertThatThrownBy(() -> TokenSet.parse("short", "t")).hasMessageContaining("16");
        assertThatThrownBy(() -> TokenSet.parse("# nothing", "t")).hasMessageContaining("no token");
    }

    @Test
    void acceptsTheTokenAsBasicPasswordForTheStatusPageOnly() {
        TokenSet tokens = TokenSet.parse("first-token-0123456789 second-token-012345678", "t");
        String basic = "Basic " + java.util.Base64.getEncoder().encodeToString(
                "anyone:second-token-012345678".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(tokens.matchPageCredentials(basic)).isEqualTo(1);
        assertThat(tokens.matchPageCredentials("Bearer first-token-0123456789")).isZero();
        assertThat(tokens.match(basic)).as("the API takes bearer tokens only").isEqualTo(-1);
        assertThat(tokens.matchPageCredentials("Basic " + java.util.Base64.getEncoder().encodeToString(
                "anyone:second-token-01234567".getBytes(java.nio.charset.StandardCharsets.UTF_8)))).isEqualTo(-1);
        assertThat(tokens.matchPageCredentials("Basic !!!not-base64")).isEqualTo(-1);
        assertThat(tokens.matchPageCredentials("Basic " + "QUFB".repeat(1000))).isEqualTo(-1);
        assertThat(tokens.matchPageCredentials(null)).isEqualTo(-1);
    }

    @Test
    void ownerFingerprintsAreStableDistinctAndNotTheTokens() {
        TokenSet tokens = TokenSet.parse("first-token-0123456789 second-token-012345678", "t");
        TokenSet reread = TokenSet.parse("second-token-012345678\nfirst-token-0123456789", "t");
        assertThat(tokens.owner(0)).hasSize(TokenSet.OWNER_LENGTH).isNotEqualTo(tokens.owner(1))
                .isEqualTo(reread.owner(1)).doesNotContain("first");
        assertThat(reread.indexOfOwner(tokens.owner(0))).as("found after the file was reordered").isEqualTo(1);
        assertThat(tokens.indexOfOwner("0".repeat(32))).isEqualTo(-1);
        assertThat(tokens.indexOfOwner(null)).isEqualTo(-1);
    }

    @Test
    void readsTheTokenFileAsBytesAndRefusesBinaryContent(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("token");
        Files.write(file, new byte[] {'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p',
            (byte) 0xc3, 0x28, '\n'});
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        assertThatThrownBy(() -> TokenSet.readFile(file)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("byte 16 (0xc3)").hasMessageContaining("printable ASCII");
        Files.write(file, "\r\n# comment\r\nfile-token-0123456789abc\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        assertThat(TokenSet.readFile(file).match("Bearer file-token-0123456789abc")).isZero();
    }

    @Test
    void refusesATokenFileOthersCanRead(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("token");
        Files.writeString(file, "file-token-0123456789abc\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> TokenSet.readFile(file)).hasMessageContaining("readable or writable by other users")
                .hasMessageContaining("chmod 600");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
        assertThat(TokenSet.readFile(file).match("Bearer file-token-0123456789abc")).isZero();
        assertThatThrownBy(() -> TokenSet.readFile(dir.resolve("missing"))).hasMessageContaining("does not exist");
    }
}
