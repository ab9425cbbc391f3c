package org.fjm2.norm.sender;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

class PathCacheTest {

    static final long CONFIGURED = 8L << 20;
    static final long MAX = 4 * CONFIGURED;
    static final int DATAGRAM = 20_000;

    /** Sends {@code seconds} of datagrams at {@code bytesPerSecond} through {@code cache}, from {@code start}. */
    private static long send(PathCache cache, long start, double seconds, double bytesPerSecond) {
        long gap = (long) (DATAGRAM * 1e9 / bytesPerSecond);
        long now = start;
        for (long end = start + (long) (seconds * 1e9); now < end; now += gap) {
            cache.onSent(DATAGRAM, now);
        }
        return now;
    }

    @Test
    void aLongPathGrowsTheBoundToWhatItsRoundTripsCarry() {
        TxAdmission admission = new TxAdmission(CONFIGURED, 4096, () -> { });
        PathCache cache = new PathCache(admission, CONFIGURED, MAX, () -> 200_000_000L);
        send(cache, 0, 1.0, 10e6);
        // 10 MB/s over 8 round trips of 200 ms: 16 MB
        assertThat(cache.bound()).isBetween(15_000_000L, 17_000_000L);
    }

    @Test
    void withoutAMaximumTheBoundNeverMoves() {
        TxAdmission admission = new TxAdmission(CONFIGURED, 4096, () -> { });
        PathCache cache = new PathCache(admission, CONFIGURED, 0, () -> 200_000_000L);
        send(cache, 0, 1.0, 10e6);
        assertThat(cache.bound()).isEqualTo(CONFIGURED);
    }

    @Test
    void aLanKeepsTheConfiguredBound() {
        TxAdmission admission = new TxAdmission(CONFIGURED, 4096, () -> { });
        PathCache cache = new PathCache(admission, CONFIGURED, MAX, () -> 200_000L);
        send(cache, 0, 1.0, 1e9);
        assertThat(cache.bound()).isEqualTo(CONFIGURED);
    }

    @Test
    void theBoundIsCappedAndComesBackWhenThePaceFalls() {
        TxAdmission admission = new TxAdmission(CONFIGURED, 4096, () -> { });
        AtomicLong rtt = new AtomicLong(2_000_000_000L);
        PathCache cache = new PathCache(admission, CONFIGURED, MAX, rtt::get);
        long now = send(cache, 0, 1.0, 100e6);
        assertThat(cache.bound()).isEqualTo(MAX);
        send(cache, now, 1.0, 100e3);
        assertThat(cache.bound()).isEqualTo(CONFIGURED);
    }

    @Test
    void aPublisherWaitingOnTheConfiguredBoundGoesOnWhenItGrows() throws Exception {
        TxAdmission admission = new TxAdmission(CONFIGURED, 4096, () -> { });
        PathCache cache = new PathCache(admission, CONFIGURED, MAX, () -> 200_000_000L);
        assertThat(admission.reserve((int) CONFIGURED - 1000, 1, TimeUnit.SECONDS)).isTrue();
        CountDownLatch admitted = new CountDownLatch(1);
        AtomicBoolean timedOut = new AtomicBoolean();
        Thread publisher = new Thread(() -> {
            try {
                if (admission.reserve(1_000_000, 10, TimeUnit.SECONDS)) {
                    admitted.countDown();
                } else {
                    timedOut.set(true);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        publisher.start();
        assertThat(admitted.await(200, TimeUnit.MILLISECONDS)).as("held by the configured bound").isFalse();
        send(cache, 0, 1.0, 10e6);
        assertThat(admitted.await(5, TimeUnit.SECONDS)).as("admitted once the bound grew").isTrue();
        publisher.join(5_000);
        assertThat(timedOut).isFalse();
    }
}
