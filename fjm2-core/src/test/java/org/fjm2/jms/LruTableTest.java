package org.fjm2.jms;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** Recency order of the bounded tables' entries, against a plain list as the model. */
class LruTableTest {

    private static final class Item extends LruTable.Entry {
    }

    @Test
    void keepsEntriesFromTheLeastToTheMostRecentlyHeard() {
        long seed = Long.getLong("fjm2.test.seed", System.nanoTime());
        System.out.println("LruTableTest seed=" + seed + " (rerun with -Dfjm2.test.seed=" + seed + ")");
        Random random = new Random(seed);
        LruTable<Item> table = new LruTable<>();
        List<Long> model = new ArrayList<>();
        for (int step = 0; step < 20_000; step++) {
            long key = random.nextInt(64);
            Item item = table.get(key);
            int action = random.nextInt(3);
            if (item == null) {
                table.add(key, new Item(), step);
                model.add(key);
            } else if (action == 0) {
                table.remove(item);
                model.remove(key);
            } else {
                table.touch(item, step);
                model.remove(key);
                model.add(key);
                assertThat(item.heardNanos()).isEqualTo(step);
            }
            if (step % 97 == 0) {
                List<Long> order = new ArrayList<>();
                table.forEach(e -> order.add(e.key()));
                assertThat(order).as("seed %d, step %d", seed, step).isEqualTo(model);
                assertThat(table.size()).isEqualTo(model.size());
                assertThat(table.oldest() == null ? null : table.oldest().key())
                        .isEqualTo(model.isEmpty() ? null : model.get(0));
            }
        }
        table.clear();
        assertThat(table.size()).isZero();
        assertThat(table.oldest()).isNull();
    }
}
