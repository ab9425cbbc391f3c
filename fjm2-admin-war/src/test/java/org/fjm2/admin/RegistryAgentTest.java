package org.fjm2.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The registry's owning agent over a real embedded H2 database. */
class RegistryAgentTest {

    static final TokenSet TOKENS = TokenSet.parse("unit-test-token-0123456789 other-test-token-0123456789", "test");
    static final int OWNER = 0;
    static final int OTHER = 1;

    @TempDir
    Path dir;

    static AdminSettings settings(Duration expiry, int maxNodes) {
        return new AdminSettings(null, "unused", null, AdminSettings.DEFAULT_DATA_SOURCE, expiry,
                Duration.ofHours(1), Duration.ofMillis(10), 4096, maxNodes, AdminSettings.StatusPageAccess.TOKEN, true);
    }

    RegistryAgent open(DataSource dataSource, AdminSettings settings) throws Exception {
        return new RegistryAgent(new NodeDatabase(dataSource), TOKENS, settings, System::currentTimeMillis);
    }

    @Test
    void hundredsOfConcurrentRegistrationsAreAllStoredDurably() throws Exception {
        int nodes = 400;
        DataSource h2 = RegistryDataSource.embedded(dir);
        ExecutorService pool = Executors.newFixedThreadPool(nodes);
        List<CompletableFuture<RegistryAgent.Registered>> results = new ArrayList<>();
        long lastModified;
        try (RegistryAgent agent = open(h2, settings(Duration.ofHours(1), 10_000))) {
            CountDownLatch go = new CountDownLatch(1);
            List<java.util.concurrent.Future<CompletableFuture<RegistryAgent.Registered>>> submitted = new ArrayList<>();
            for (int i = 0; i < nodes; i++) {
                int n = i;
                submitted.add(pool.submit(() -> {
                    go.await();
                    return agent.register("node-" + n, "10.0." + (n / 250) + "." + (n % 250 + 1), 7000 + n, 0);
                }));
            }
            go.countDown();
            for (var f : submitted) {
                results.add(f.get(30, TimeUnit.SECONDS));
            }
            for (var r : results) {
                assertThat(r.get(30, TimeUnit.SECONDS).created()).isTrue();
            }
            RegistrySnapshot snapshot = agent.snapshot();
            assertThat(snapshot.nodes()).hasSize(nodes);
            lastModified = snapshot.lastModified();
            assertThat(results).allSatisfy(r -> assertThat(r.join().lastModified()).isLessThanOrEqualTo(lastModified));
        } finally {
            pool.shutdownNow();
        }
        try (NodeDatabase reopened = new NodeDatabase(h2)) {
            RegistrySnapshot stored = reopened.open();
            assertThat(stored.nodes()).hasSize(nodes);
            assertThat(stored.lastModified()).isEqualTo(lastModified);
            assertThat(stored.nodes()).anySatisfy(n -> {
                assertThat(n.id()).isEqualTo("node-399");
                assertThat(n.port()).isEqualTo(7399);
            });
        }
    }

    @Test
    void stampAdvancesOnMembershipChangesOnly() throws Exception {
        try (RegistryAgent agent = open(RegistryDataSource.embedded(dir), settings(Duration.ofHours(1), 10))) {
            long first = agent.register("a", "127.0.0.1", 9, 0).get(10, TimeUnit.SECONDS).lastModified();
            long refreshed = agent.register("a", "127.0.0.1", 9, 0).get(10, TimeUnit.SECONDS).lastModified();
            assertThat(refreshed).isEqualTo(first);
            long moved = agent.register("a", "127.0.0.1", 10, 0).get(10, TimeUnit.SECONDS).lastModified();
            assertThat(moved).isGreaterThan(first);
            Optional<Long> deleted = agent.deregister("a", OWNER).get(10, TimeUnit.SECONDS);
            assertThat(deleted).hasValueSatisfying(stamp -> assertThat(stamp).isGreaterThan(moved));
            assertThat(agent.deregister("a", OWNER).get(10, TimeUnit.SECONDS)).isEmpty();
        }
    }

    @Test
    void refusesNodesBeyondTheMaximum() throws Exception {
        try (RegistryAgent agent = open(RegistryDataSource.embedded(dir), settings(Duration.ofHours(1), 2))) {
            agent.register("a", "127.0.0.1", 9, 0).get(10, TimeUnit.SECONDS);
            agent.register("b", "127.0.0.1", 9, 0).get(10, TimeUnit.SECONDS);
            assertThatThrownBy(() -> agent.register("c", "127.0.0.1", 9, 0).get(10, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(RegistryException.class)
                    .satisfies(e -> assertThat(((RegistryException) e.getCause()).kind())
                            .isEqualTo(RegistryException.Kind.FULL));
            assertThat(agent.register("a", "127.0.0.1", 9, 0).get(10, TimeUnit.SECONDS).created())
                    .as("refreshing a known node is still allowed").isFalse();
            assertThat(agent.snapshot().nodes()).extracting(Node::id).containsExactly("a", "b");
        }
    }

    @Test
    void aFailedWriteStoresNothingAndChangesNothing() throws Exception {
        DataSource h2 = RegistryDataSource.embedded(dir);
        AtomicBoolean failWrites = new AtomicBoolean();
        DataSource flaky = failingOnDemand(h2, failWrites);
        try (RegistryAgent agent = open(flaky, settings(Duration.ofHours(1), 10))) {
            agent.register("kept", "127.0.0.1", 9, 0).get(10, TimeUnit.SECONDS);
            RegistrySnapshot before = agent.snapshot();
            failWrites.set(true);
            assertThatThrownBy(() -> agent.register("lost", "127.0.0.1", 9, 0).get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .satisfies(e -> assertThat(((RegistryException) e.getCause()).kind())
                            .isEqualTo(RegistryException.Kind.STORAGE));
            assertThat(agent.snapshot()).isSameAs(before);
            failWrites.set(false);
            assertThat(agent.register("later", "127.0.0.1", 9, 0).get(10, TimeUnit.SECONDS).created()).isTrue();
        }
        try (NodeDatabase reopened = new NodeDatabase(h2)) {
            assertThat(reopened.open().nodes()).extracting(Node::id).containsExactly("kept", "later");
        }
    }

    @Test
    void expiresSilentNodes() throws Exception {
        try (RegistryAgent agent = open(RegistryDataSource.embedded(dir), settings(Duration.ofMillis(200), 10))) {
            long stamp = agent.register("silent", "127.0.0.1", 9, 0).get(10, TimeUnit.SECONDS).lastModified();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!agent.snapshot().nodes().isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(agent.snapshot().nodes()).isEmpty();
            assertThat(agent.snapshot().lastModified()).isGreaterThan(stamp);
            assertThat(agent.expiredTotal()).isEqualTo(1);
        }
    }

    @Test
    void aNodeBelongsToTheTokenThatRegisteredItAcrossRestarts() throws Exception {
        DataSource h2 = RegistryDataSource.embedded(dir);
        try (RegistryAgent agent = open(h2, settings(Duration.ofHours(1), 10))) {
            assertThat(agent.register("a", "10.0.0.1", 9, OWNER).get(10, TimeUnit.SECONDS).created()).isTrue();
            assertNotOwner(agent.register("a", "10.6.6.6", 9, OTHER));
            assertNotOwner(agent.deregister("a", OTHER));
            assertThat(agent.snapshot().nodes()).extracting(Node::host).containsExactly("10.0.0.1");
            assertThat(agent.register("b", "10.0.0.2", 9, OTHER).get(10, TimeUnit.SECONDS).created()).isTrue();
        }
        try (RegistryAgent agent = open(h2, settings(Duration.ofHours(1), 10))) {
            assertNotOwner(agent.register("a", "10.6.6.6", 9, OTHER));
            assertNotOwner(agent.deregister("b", OWNER));
            assertThat(agent.register("a", "10.0.0.3", 9, OWNER).get(10, TimeUnit.SECONDS).created()).isFalse();
            assertThat(agent.deregister("b", OTHER).get(10, TimeUnit.SECONDS)).isPresent();
            assertThat(agent.snapshot().nodes()).extracting(Node::host).containsExactly("10.0.0.3");
        }
    }

    @Test
    void aNodeStoredBeforeOwnersWereKeptIsClaimedByTheNextRefresh() throws Exception {
        DataSource h2 = RegistryDataSource.embedded(dir);
        try (Connection c = h2.getConnection(); java.sql.Statement s = c.createStatement()) {
            // The schema of the first release: no owner column.
            s.execute("CREATE TABLE " + NodeDatabase.NODE_TABLE + " (id VARCHAR(64) PRIMARY KEY, host VARCHAR(253)"
                    + " NOT NULL, port INTEGER NOT NULL, registered BIGINT NOT NULL, last_seen BIGINT NOT NULL)");
            s.execute("INSERT INTO " + NodeDatabase.NODE_TABLE + " VALUES ('old', '10.0.0.9', 9, 1, "
                    + System.currentTimeMillis() + ")");
        }
        try (RegistryAgent agent = open(h2, settings(Duration.ofHours(1), 10))) {
            assertThat(agent.snapshot().nodes()).extracting(Node::id).containsExactly("old");
            assertThat(agent.register("old", "10.0.0.9", 9, OTHER).get(10, TimeUnit.SECONDS).created()).isFalse();
            assertNotOwner(agent.register("old", "10.0.0.9", 9, OWNER));
        }
    }

    @Test
    void probesTheDatabaseOnItsOwnThread() throws Exception {
        AtomicBoolean fail = new AtomicBoolean();
        try (RegistryAgent agent = open(failingOnDemand(RegistryDataSource.embedded(dir), fail),
                settings(Duration.ofHours(1), 10))) {
            assertThat(agent.probeDatabase().get(10, TimeUnit.SECONDS)).isNull();
            fail.set(true);
            assertThat(agent.probeDatabase().get(10, TimeUnit.SECONDS)).contains("injected");
            fail.set(false);
            assertThat(agent.probeDatabase().get(10, TimeUnit.SECONDS)).isNull();
        }
    }

    static void assertNotOwner(CompletableFuture<?> change) {
        assertThatThrownBy(() -> change.get(10, TimeUnit.SECONDS))
                .hasCauseInstanceOf(RegistryException.class)
                .satisfies(e -> assertThat(((RegistryException) e.getCause()).kind())
                        .isEqualTo(RegistryException.Kind.NOT_OWNER))
                .hasMessageContaining("another token");
    }

    /** Wraps {@code real} so that every connection's statements throw while {@code fail} is set. */
    static DataSource failingOnDemand(DataSource real, AtomicBoolean fail) {
        return (DataSource) Proxy.newProxyInstance(RegistryAgentTest.class.getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    Object result = method.invoke(real, args);
                    if (!(result instanceof Connection c)) {
                        return result;
                    }
                    return Proxy.newProxyInstance(RegistryAgentTest.class.getClassLoader(),
                            new Class<?>[] {Connection.class}, (p, m, a) -> {
                                if (fail.get() && m.getName().equals("commit")) {
                                    throw new SQLException("injected commit failure");
                                }
                                try {
                                    return m.invoke(c, a);
                                } catch (java.lang.reflect.InvocationTargetException e) {
                                    throw e.getCause();
                                }
                            });
                });
    }
}
