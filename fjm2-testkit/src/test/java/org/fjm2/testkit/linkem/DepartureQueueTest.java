package org.fjm2.testkit.linkem;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class DepartureQueueTest {

    @Test
    void pollsByTimeAndKeepsAdmissionOrderForEqualTimes() {
        long seed = 7;
        SplittableRandom random = new SplittableRandom(seed);
        DepartureQueue queue = new DepartureQueue();
        List<long[]> added = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            Departure d = queue.acquire();
            d.due = random.nextInt(100);
            queue.add(d);
            added.add(new long[] {d.due, d.sequence});
        }
        assertThat(queue.size()).isEqualTo(5000);
        long lastDue = -1;
        long lastSequence = -1;
        Departure d;
        int polled = 0;
        while ((d = queue.poll()) != null) {
            assertThat(d.due).as("seed %d", seed).isGreaterThanOrEqualTo(lastDue);
            if (d.due == lastDue) {
                assertThat(d.sequence).as("seed %d: FIFO among equal times", seed).isGreaterThan(lastSequence);
            }
            lastDue = d.due;
            lastSequence = d.sequence;
            queue.recycle(d);
            polled++;
        }
        assertThat(polled).isEqualTo(5000);
    }

    @Test
    void reusesRecycledEntries() {
        DepartureQueue queue = new DepartureQueue();
        Departure first = queue.acquire();
        queue.add(first);
        queue.recycle(queue.poll());
        assertThat(queue.acquire()).isSameAs(first);
    }
}
