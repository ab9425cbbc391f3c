package org.fjm2.store;

import org.fjm2.norm.RuntimeDependencies;
import org.junit.jupiter.api.Test;

/**
 * fjm2-store can be embedded ({@code Fjm2Store.start}): it brings the Artemis journal, never picocli or a logging
 * backend (`fjm2 store` and its logback live in fjm2-cli).
 */
class LibraryDependenciesTest {

    @Test
    void noCliFrameworkAndNoLoggingBackendReachApplications() throws Exception {
        RuntimeDependencies.assertEmbeddable("/org/apache/activemq/artemis-journal/");
    }
}
