package org.fjm2.store;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * A store in a process of its own, for crash tests: {@code StoreProcess URL DIR} prints {@code READY <node>} once it
 * listens, then runs until killed.
 */
public final class StoreProcess {

    private StoreProcess() {
    }

    public static void main(String[] args) throws Exception {
        try {
            Fjm2Store store = Fjm2Store.start(StoreSettings.of(args[0], Path.of(args[1])));
            System.out.println("READY " + Integer.toUnsignedString(store.nodeId()) + " recovered="
                    + store.recoveredMessages());
            System.out.flush();
            new CountDownLatch(1).await();
        } catch (Exception e) {
            System.out.println("FAIL " + e);
            System.exit(1);
        }
    }
}
