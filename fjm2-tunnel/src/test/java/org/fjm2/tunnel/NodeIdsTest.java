package org.fjm2.tunnel;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Default node ids are unique without configuration, although every daemon here shares the host name (as cloned
 * gateways and network namespaces do): drawn at random, kept per interface and listen port in the state directory.
 */
class NodeIdsTest {

    @TempDir
    Path dir;

    @Test
    void daemonsOnOneHostGetDistinctIdsThatTheyKeep() throws Exception {
        TunnelConfig first = config(dir, 7001);
        TunnelConfig second = config(dir, 7002);
        assertThat(first.nodeId()).as("same host name, another port").isNotEqualTo(second.nodeId());
        assertThat(first.nodeId()).matches(NodeIds.VALID.pattern());
        assertThat(config(dir, 7001).nodeId()).as("kept across restarts").isEqualTo(first.nodeId());
        Path file = NodeIds.stateFile(dir, "lo", new InetSocketAddress("127.0.0.1", 7001));
        assertThat(file.getFileName().toString()).isEqualTo("tunnel-node-127.0.0.1-7001.id");
        assertThat(Files.readString(file).strip()).isEqualTo(first.nodeId());
    }

    @Test
    void clonedHostsWithTheSameNameDrawDifferentIds() {
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            ids.add(NodeIds.random());
        }
        assertThat(ids).hasSize(100);
        Set<String> ephemeral = new HashSet<>();
        for (int i = 0; i < 3; i++) {
            ephemeral.add(TunnelConfig.builder("239.255.0.1", 6003).interfaceName("lo").stateDir(dir)
                    .listen(new InetSocketAddress("127.0.0.1", 0)).key(LoopbackLans.KEY).build().nodeId());
        }
        assertThat(ephemeral).as("an ephemeral port keeps nothing: a new id each time").hasSize(3);
    }

    @Test
    void anUnwritableStateDirectoryStillGivesAnId() throws Exception {
        Path notADirectory = Files.writeString(dir.resolve("file"), "x");
        TunnelConfig c = config(notADirectory, 7003);
        assertThat(c.nodeId()).matches(NodeIds.VALID.pattern());
    }

    private static TunnelConfig config(Path stateDir, int port) {
        return TunnelConfig.builder("239.255.0.1", 6003).interfaceName("lo").stateDir(stateDir)
                .listen(new InetSocketAddress("127.0.0.1", port)).key(LoopbackLans.KEY).build();
    }
}
