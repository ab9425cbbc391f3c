package org.fjm2.norm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** fjm2-norm is embedded by applications: it brings them netty and the SLF4J API, never picocli or logback. */
class LibraryDependenciesTest {

    @Test
    void noCliFrameworkAndNoLoggingBackendReachApplications() throws Exception {
        RuntimeDependencies.assertEmbeddable("/org/slf4j/slf4j-api/");
    }

    @Test
    void theForbiddenPatternCatchesWhatItIsFor() {
        assertThat(RuntimeDependencies.FORBIDDEN.matcher("/r/info/picocli/picocli/4.7.7/picocli-4.7.7.jar").find())
                .isTrue();
        assertThat(RuntimeDependencies.FORBIDDEN.matcher("/r/ch/qos/logback/logback-classic/1.5/x.jar").find())
                .isTrue();
        assertThat(RuntimeDependencies.FORBIDDEN.matcher("/r/org/slf4j/slf4j-api/2.0.17/slf4j-api-2.0.17.jar").find())
                .isFalse();
    }
}
