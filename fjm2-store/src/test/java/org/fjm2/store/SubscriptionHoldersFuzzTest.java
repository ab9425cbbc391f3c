package org.fjm2.store;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.fjm2.jms.wire.DurableSubscriptionFlyweight;
import org.fjm2.norm.fuzz.FuzzInput;
import org.fjm2.norm.fuzz.InputBounds;

/**
 * A subscription's holders under any sequence of held and released records from any node ids, at any times, and
 * unsubscribes looking at them (what forged records can do): the table never holds more than
 * {@link SubscriptionHolders#MAX_HOLDERS}, each record costs one entry at most, and a holder heard within
 * {@link DurableSubscriptionFlyweight#HOLD_TIMEOUT_MILLIS} that is still remembered blocks another node's unsubscribe.
 */
class SubscriptionHoldersFuzzTest {

    @FuzzTest
    void heldReleasedAndUnsubscribes(byte[] input) throws Exception {
        InputBounds.runWithinBounds(input, () -> {
            FuzzInput in = new FuzzInput(input);
            SubscriptionHolders holders = new SubscriptionHolders();
            long now = 1_000_000;
            while (in.remaining() >= 3) {
                int node = in.u8() % 40;        // a few ids, so that the same ones come back
                now += in.u8() * 50L;           // up to 12.75 s between records
                switch (in.u8() % 3) {
                    case 0 -> {
                        holders.held(node, now);
                        if (holders.heldByOtherThan(node + 1, now) == null) {
                            throw new AssertionError("a holder heard now does not block another node");
                        }
                    }
                    case 1 -> {
                        holders.released(node);
                        Integer other = holders.heldByOtherThan(node + 1, now);
                        if (other != null && other == node) {
                            throw new AssertionError("a released holder still blocks");
                        }
                    }
                    default -> holders.heldByOtherThan(node, now);
                }
                if (holders.size() > SubscriptionHolders.MAX_HOLDERS) {
                    throw new AssertionError(holders.size() + " holders remembered");
                }
            }
        });
    }
}
