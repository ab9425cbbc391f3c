package org.fjm2.tunnel;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.fjm2.testkit.Await;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Datagrams the kernel drops at a daemon that does not keep up (full socket buffers) never reach its relay: the daemon
 * reads them from the kernel and reports them (JMX counters, status line, a warning), so they are not lost in silence.
 */
class KernelDropsTest {

    @Test
    void datagramsDroppedAtAFullSocketBufferAreCounted() throws Exception {
        try (TunnelDaemon d = LoopbackLans.tunnel(LoopbackLans.lan(), "slow", b -> b.receiveBuffer(4096));
             DatagramSocket flood = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            Assumptions.assumeTrue(d.getCounters().get("kernel_drops_wan") >= 0,
                    "kernel drop counts are read from /proc/net/udp with the epoll transport only");
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch blocked = new CountDownLatch(1);
            d.eventLoop().execute(() -> {
                blocked.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);      // the daemon "has no CPU" while the flood arrives
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertThat(blocked.await(10, TimeUnit.SECONDS)).isTrue();
            byte[] junk = new byte[1000];
            for (int i = 0; i < 200; i++) {
                flood.send(new DatagramPacket(junk, junk.length, LoopbackLans.wanAddress(d)));
            }
            release.countDown();
            Await.untilTrue("kernel drops counted", () -> d.getCounters().get("kernel_drops_wan") > 0,
                    Duration.ofSeconds(10), d::getCounters);
        }
    }
}
