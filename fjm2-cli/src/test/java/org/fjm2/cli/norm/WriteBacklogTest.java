package org.fjm2.cli.norm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

/** {@code norm recv}'s hand-off to the disk holds at most its bound, whatever arrives, and never drops an item. */
class WriteBacklogTest {

    private static final long SEED = Long.getLong("fjm2.test.seed", 20261127L);

    @Test
    void aPutBeyondTheBoundWaitsUntilAnItemIsWritten() throws Exception {
        WriteBacklog<String> backlog = new WriteBacklog<>(100);
        assertThat(backlog.put("a", 60)).isTrue();
        CountDownLatch putDone = new CountDownLatch(1);
        Thread loop = new Thread(() -> {
            if (backlog.put("b", 60)) {
                putDone.countDown();
            }
        });
        loop.start();
        assertThat(putDone.await(300, TimeUnit.MILLISECONDS)).as("120 of 100 bytes would be held").isFalse();
        assertThat(backlog.poll(0)).isEqualTo("a");
        assertThat(putDone.await(300, TimeUnit.MILLISECONDS)).as("taken but not yet written: still held").isFalse();
        backlog.written(60);
        assertThat(putDone.await(5, TimeUnit.SECONDS)).as("room once written").isTrue();
        assertThat(backlog.poll(0)).isEqualTo("b");
        assertThat(backlog.waits()).isEqualTo(1);
        assertThat(backlog.peakBytes()).isEqualTo(60);
    }

    @Test
    void anItemLargerThanTheBoundGoesThroughAlone() {
        WriteBacklog<String> backlog = new WriteBacklog<>(100);
        assertThat(backlog.put("huge", 1_000)).isTrue();
        assertThat(backlog.poll()).isEqualTo("huge");
        backlog.written(1_000);
        assertThat(backlog.put("small", 10)).isTrue();
        assertThat(backlog.waits()).isZero();
    }

    @Test
    void closingWakesAWaitingPutAndHandsBackWhatWasNeverTaken() throws Exception {
        WriteBacklog<String> backlog = new WriteBacklog<>(100);
        assertThat(backlog.put("a", 100)).isTrue();
        AtomicBoolean refused = new AtomicBoolean();
        CountDownLatch returned = new CountDownLatch(1);
        Thread loop = new Thread(() -> {
            refused.set(!backlog.put("b", 1));
            returned.countDown();
        });
        loop.start();
        assertThat(returned.await(300, TimeUnit.MILLISECONDS)).isFalse();
        assertThat(backlog.close()).containsExactly("a");
        assertThat(returned.await(5, TimeUnit.SECONDS)).as("the waiting put returned").isTrue();
        assertThat(refused.get()).as("the caller keeps (and releases) what was refused").isTrue();
        assertThat(backlog.put("c", 1)).isFalse();
        assertThat(backlog.poll(TimeUnit.SECONDS.toNanos(1))).isNull();
    }

    @Test
    void aFastNetworkAndASlowDiskNeverHoldMoreThanTheBoundAndLoseNothing() throws Exception {
        long bound = 64 * 1024;
        SplittableRandom random = new SplittableRandom(SEED);
        int count = 5_000;
        long[] sizes = new long[count];
        for (int i = 0; i < count; i++) {
            sizes[i] = 1 + random.nextLong(bound / 4);
        }
        WriteBacklog<Integer> backlog = new WriteBacklog<>(bound);
        Thread network = new Thread(() -> {
            for (int i = 0; i < count; i++) {
                if (!backlog.put(i, sizes[i])) {
                    return;
                }
            }
        });
        network.start();
        List<Integer> written = new ArrayList<>();
        SplittableRandom disk = new SplittableRandom(SEED + 1);
        while (written.size() < count) {
            Integer next = backlog.poll(TimeUnit.SECONDS.toNanos(10));
            assertThat(next).as("seed %d: item %d arrived", SEED, written.size()).isNotNull();
            if (disk.nextInt(50) == 0) {
                Thread.sleep(1);    // a slow write now and then: the network side fills the bound
            }
            written.add(next);
            backlog.written(sizes[next]);
        }
        network.join(10_000);
        assertThat(written).as("seed %d: every item once, in order", SEED).hasSize(count)
                .isSortedAccordingTo(Integer::compare).doesNotHaveDuplicates();
        assertThat(backlog.peakBytes()).as("seed %d: most bytes held", SEED).isLessThanOrEqualTo(bound);
        assertThat(backlog.waits()).as("seed %d: the network side had to wait", SEED).isPositive();
    }
}
