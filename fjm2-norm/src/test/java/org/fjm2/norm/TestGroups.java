package org.fjm2.norm;

import java.util.concurrent.atomic.AtomicInteger;

import org.fjm2.norm.api.NormConfig;

/**
 * Multicast groups and ports for tests on loopback: each test gets its own group and port, so tests running in
 * the same JVM (or concurrently in other JVMs of the build) never hear each other.
 */
public final class TestGroups {

    private static final AtomicInteger NEXT = new AtomicInteger(
            (int) (ProcessHandle.current().pid() % 200) * 50);

    private TestGroups() {
    }

    /** A fresh group address in 239.77.0.0/16 and port, with interface lo. */
    public static NormConfig fresh() {
        int n = NEXT.getAndIncrement();
        String group = "239.77." + ((n >> 8) & 0xFF) + "." + (n & 0xFF);
        int port = 20000 + (n % 20000);
        return NormConfig.builder(group, port)
                .interfaceName("lo")
                .txRate(400_000_000L)
                .grttInitial(java.time.Duration.ofMillis(2))
                .senderTimeout(java.time.Duration.ofSeconds(20))
                .transport(System.getProperty("fjm2.test.transport", "auto"))
                .build();
    }
}
