package org.fjm2.jms;

import org.fjm2.norm.RuntimeDependencies;
import org.junit.jupiter.api.Test;

/**
 * fjm2-core is what applications add: it brings them fjm2-norm, the JMS API and the SLF4J API, never picocli or
 * logback (the command-line tools live in fjm2-cli). The README's dependency tree shows the whole list.
 */
class LibraryDependenciesTest {

    @Test
    void noCliFrameworkAndNoLoggingBackendReachApplications() throws Exception {
        RuntimeDependencies.assertEmbeddable("/jakarta/jms/jakarta.jms-api/");
    }
}
