package org.fjm2.tunnel.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.fjm2.admin.testing.AdminContainers;
import org.fjm2.admin.testing.AdminHttp;
import org.fjm2.admin.testing.AdminServer;
import org.fjm2.admin.testing.EmbeddedTomcat;
import org.fjm2.admin.testing.TestCertificates;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The daemon's admin client against the real FJM2-Admin WAR in an embedded Tomcat. */
class AdminClientTest {

    static final String TOKEN = "client-token-0123456789abcdef";
    static final ObjectMapper JSON = new ObjectMapper();
    static final Duration LONG = Duration.ofHours(1);

    @TempDir
    Path dir;

    AdminServer admin;
    AdminHttp http;
    final BlockingQueue<List<PeerAddress>> peerLists = new LinkedBlockingQueue<>();

    @BeforeEach
    void startAdmin() {
        admin = EmbeddedTomcat.deploy(dir.resolve("tomcat"), Map.of(
                "fjm2.admin.tokenFile", AdminContainers.tokenFile(dir, TOKEN).toString(),
                "fjm2.admin.dataDir", dir.resolve("data").toString(),
                "fjm2.admin.allowLoopback", "true",
                "fjm2.admin.advertiseInterval", "1h"));
        http = new AdminHttp(admin.baseUri(), TOKEN);
    }

    @AfterEach
    void stopAdmin() {
        admin.close();
    }

    AdminClient client(String id, int port, Duration keepalive, Duration poll) {
        return new AdminClient(admin.baseUri(), TOKEN, id, "127.0.0.1", port, keepalive, peerLists::add,
                new AdminClient.Options(poll, Duration.ofMinutes(2), Duration.ofSeconds(10)));
    }

    List<String> registeredIds() throws IOException {
        JsonNode list = JSON.readTree(http.get("api/nodes").body());
        return list.get("nodes").findValuesAsText("id");
    }

    List<PeerAddress> awaitPeers(Predicate<List<PeerAddress>> wanted, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            List<PeerAddress> peers = peerLists.poll(1, TimeUnit.SECONDS);
            if (peers != null && wanted.test(peers)) {
                return peers;
            }
        }
        throw new AssertionError("timed out waiting for " + what);
    }

    @Test
    void registersRefreshesOnAdvertisementAndDeregistersOnClose() throws Exception {
        http.register("peer-1", "127.0.0.1", 9);
        try (AdvertisementListener listener = new AdvertisementListener(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            AdminClient client = client("daemon", listener.localPort(), LONG, LONG);
            listener.start(client);
            client.start();
            List<PeerAddress> first = awaitPeers(p -> !p.isEmpty(), "the first peer list");
            assertThat(first).containsExactly(new PeerAddress("peer-1", "127.0.0.1", 9));
            assertThat(registeredIds()).contains("daemon", "peer-1");

            // Polling is an hour away: only the advertisement can bring the new peer in.
            http.register("peer-2", "127.0.0.1", 10);
            List<PeerAddress> second = awaitPeers(p -> p.size() == 2, "the list after peer-2 registered");
            assertThat(second).extracting(PeerAddress::id).containsExactly("peer-1", "peer-2");
            assertThat(listener.valid()).isPositive();
            assertThat(client.advertisementsAccepted()).isPositive();
            assertThat(client.knownLastModified())
                    .isEqualTo(JSON.readTree(http.get("api/nodes").body()).get("lastModified").asLong());

            client.close();
            assertThat(registeredIds()).containsExactly("peer-1", "peer-2");
        }
    }

    @Test
    void pollsWhenAdvertisementsAreLost() throws Exception {
        // Port 9 (discard): the advertisements go nowhere, so the poll must find the change.
        try (AdminClient client = client("daemon", 9, LONG, Duration.ofMillis(300))) {
            client.start();
            awaitPeers(List::isEmpty, "the first (empty) peer list");
            http.register("late", "127.0.0.1", 11);
            assertThat(awaitPeers(p -> !p.isEmpty(), "the polled list")).extracting(PeerAddress::id)
                    .containsExactly("late");
            assertThat(client.advertisementsAccepted()).isZero();
        }
    }

    @Test
    void keepsTheRegistrationAliveWithinTheExpiry() throws Exception {
        admin.close();
        admin = EmbeddedTomcat.deploy(dir.resolve("tomcat2"), Map.of(
                "fjm2.admin.tokenFile", AdminContainers.tokenFile(dir, TOKEN).toString(),
                "fjm2.admin.dataDir", dir.resolve("data2").toString(),
                "fjm2.admin.allowLoopback", "true",
                "fjm2.admin.expiry", "3s"));
        http = new AdminHttp(admin.baseUri(), TOKEN);
        try (AdminClient client = client("daemon", 9, Duration.ofMillis(500), LONG)) {
            client.start();
            awaitPeers(p -> true, "the first peer list");
            long firstSeen = lastSeen("daemon");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (lastSeen("daemon") <= firstSeen && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertThat(lastSeen("daemon")).as("a keepalive refreshed the node").isGreaterThan(firstSeen);
        }
        assertThat(registeredIds()).doesNotContain("daemon");
    }

    @Test
    void keepsPeersWhileTheAdminConfirmsThemAndDropsThemWhenItFallsSilent() throws Exception {
        admin.close();
        admin = EmbeddedTomcat.deploy(dir.resolve("tomcat3"), Map.of(
                "fjm2.admin.tokenFile", AdminContainers.tokenFile(dir, TOKEN).toString(),
                "fjm2.admin.dataDir", dir.resolve("data3").toString(),
                "fjm2.admin.allowLoopback", "true",
                "fjm2.admin.advertiseInterval", "200ms"));
        http = new AdminHttp(admin.baseUri(), TOKEN);
        http.register("peer-1", "127.0.0.1", 9);
        Duration expiry = Duration.ofSeconds(1);
        try (AdvertisementListener listener = new AdvertisementListener(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             AdminClient client = new AdminClient(admin.baseUri(), TOKEN, "daemon", "127.0.0.1",
                     listener.localPort(), LONG, peerLists::add,
                     new AdminClient.Options(LONG, Duration.ofMinutes(2), Duration.ofSeconds(10))
                             .withPeerExpiry(expiry))) {
            listener.start(client);
            client.start();
            assertThat(awaitPeers(p -> !p.isEmpty(), "the first peer list")).extracting(PeerAddress::id)
                    .containsExactly("peer-1");
            // No poll and no keepalive within the test: only the advertisements (every 200 ms) confirm the list.
            List<PeerAddress> meanwhile = peerLists.poll(3 * expiry.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(meanwhile).as("peers confirmed by advertisements stay").isNull();
            assertThat(client.advertisementsAccepted()).isGreaterThanOrEqualTo(5);

            // The last advertisement came at most 200 ms before the stop began: no expiry before 800 ms after it.
            long stopping = System.nanoTime();
            admin.close();
            assertThat(awaitPeers(List::isEmpty, "the peers to expire after the admin stopped")).isEmpty();
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopping))
                    .as("not before the expiry").isGreaterThanOrEqualTo(expiry.toMillis() - 250);
        } finally {
            admin = EmbeddedTomcat.deploy(dir.resolve("tomcat4"), Map.of(
                    "fjm2.admin.tokenFile", AdminContainers.tokenFile(dir, TOKEN).toString(),
                    "fjm2.admin.dataDir", dir.resolve("data4").toString()));
        }
    }

    @Test
    void verifiesTheAdminsCertificateAgainstTheGivenCa() throws Exception {
        TestCertificates tls = TestCertificates.create(dir.resolve("tls"), "admin");
        admin.close();
        admin = EmbeddedTomcat.deployTls(dir.resolve("tomcat-tls"), Map.of(
                "fjm2.admin.tokenFile", AdminContainers.tokenFile(dir, TOKEN).toString(),
                "fjm2.admin.dataDir", dir.resolve("data-tls").toString(),
                "fjm2.admin.allowLoopback", "true",
                "fjm2.admin.advertiseInterval", "1h"), tls);
        http = new AdminHttp(admin.baseUri(), TOKEN, tls.trustingTheCa());
        http.register("peer-1", "127.0.0.1", 9);
        URI typed = AdminClient.adminUri("127.0.0.1:" + admin.baseUri().getPort(), true);
        assertThat(typed.getScheme()).as("https by default with a CA").isEqualTo("https");
        try (AdminClient client = new AdminClient(typed, TOKEN, "daemon", "127.0.0.1", 9, LONG, peerLists::add,
                AdminClient.Options.defaults().withTrustedCa(tls.caCertificate()))) {
            client.start();
            assertThat(awaitPeers(p -> !p.isEmpty(), "the peer list over https")).extracting(PeerAddress::id)
                    .containsExactly("peer-1");
        }

        TestCertificates stranger = TestCertificates.create(dir.resolve("stranger"), "stranger");
        AdminApi wrongCa = new AdminApi(admin.baseUri(), TOKEN, Duration.ofSeconds(10),
                AdminTrust.fromFile(stranger.caCertificate()), "the CA in " + stranger.caCertificate());
        assertThatThrownBy(() -> wrongCa.register("daemon-2", "127.0.0.1", 9))
                .isInstanceOf(AdminApiException.class)
                .hasMessageContaining("TLS handshake with FJM2-Admin")
                .hasMessageContaining("not signed by the CA in " + stranger.caCertificate());
        assertThat(registeredIdsOver(http)).doesNotContain("daemon-2");
        assertThatThrownBy(() -> new AdminClient(URI.create("http://127.0.0.1:1/"), TOKEN, "d", "127.0.0.1", 9, LONG,
                peerLists::add, AdminClient.Options.defaults().withTrustedCa(tls.caCertificate())))
                .hasMessageContaining("--admin-ca needs an https admin URL");
        assertThatThrownBy(() -> AdminClient.adminUri("http://admin.example.org/", true))
                .hasMessageContaining("needs an https");
        assertThat(AdminClient.adminUri("admin.example.org:8080", false).toString())
                .isEqualTo("http://admin.example.org:8080/");
        assertThatThrownBy(() -> AdminTrust.fromFile(tls.privateKey())).hasMessageContaining("--admin-ca");
    }

    static List<String> registeredIdsOver(AdminHttp http) throws IOException {
        return JSON.readTree(http.get("api/nodes").body()).get("nodes").findValuesAsText("id");
    }

    long lastSeen(String id) throws IOException {
        for (JsonNode n : JSON.readTree(http.get("api/nodes").body()).get("nodes")) {
            if (n.get("id").asText().equals(id)) {
                return n.get("lastSeen").asLong();
            }
        }
        throw new AssertionError(id + " is not registered");
    }

    @Test
    void offeredDatagramsMustBeAuthenticFreshAndNew() throws Exception {
        try (AdminClient client = client("daemon", 9, LONG, LONG)) {
            long now = System.currentTimeMillis();
            byte[] valid = TestAdvertisements.make(TOKEN, now, now, 1);
            assertThat(client.offerAdvertisement(valid)).isTrue();
            assertThat(client.knownLastModified()).isEqualTo(now);
            assertThat(client.offerAdvertisement(valid)).as("replayed").isFalse();
            assertThat(client.offerAdvertisement(TestAdvertisements.make(TOKEN, now - 1, now, 2)))
                    .as("older stamp").isFalse();
            assertThat(client.offerAdvertisement(TestAdvertisements.make(TOKEN, now, now, 3)))
                    .as("same stamp again, fresh nonce").isTrue();
            assertThat(client.offerAdvertisement(TestAdvertisements.make(TOKEN, now + 1, now - 600_000, 4)))
                    .as("outside the replay window").isFalse();
            assertThat(client.offerAdvertisement(TestAdvertisements.make("forger-token-0123456789abc", now + 1, now, 5)))
                    .as("forged").isFalse();
            byte[] truncated = new byte[47];
            System.arraycopy(valid, 0, truncated, 0, 47);
            assertThat(client.offerAdvertisement(truncated)).as("truncated").isFalse();
            assertThat(client.advertisementsAccepted()).isEqualTo(2);
            assertThat(client.advertisementsRejected()).isEqualTo(5);
        }
    }
}
