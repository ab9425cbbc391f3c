package org.fjm2.store;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/**
 * One group and one store for all the tests of a class (each test uses its own topics and names): for the
 * conformance tests, which check many small behaviours of the store's subscriptions.
 */
abstract class OneStorePerClass {

    /** How long a receive that must find nothing waits. */
    static final long NOTHING_MILLIS = 300;
    /** How long a receive that must find a message waits at most. */
    static final long SOME_MILLIS = 5_000;

    @TempDir
    static Path dir;
    static String group;
    private static Fjm2Store store;

    @BeforeAll
    static void startStore() throws Exception {
        group = TestGroups.url("");
        store = Fjm2Store.start(StoreSettings.of(group, dir.resolve("store")));
    }

    @AfterAll
    static void stopStore() {
        if (store != null) {
            store.close();
        }
    }
}
