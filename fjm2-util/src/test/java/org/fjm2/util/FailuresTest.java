package org.fjm2.util;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.BindException;
import java.net.NoRouteToHostException;

import org.junit.jupiter.api.Test;

class FailuresTest {

    /** What Netty throws when a connect finds no route: its own subclass, the JDK's null message annotated. */
    static final class AnnotatedNoRouteToHostException extends NoRouteToHostException {
        AnnotatedNoRouteToHostException(String message) {
            super(message);
        }
    }

    @Test
    void aMissingMessageIsReplacedByTheKindOfFailure() {
        assertThat(Failures.describe(new AnnotatedNoRouteToHostException("null: /10.1.1.1:6003")))
                .isEqualTo("no route to host: /10.1.1.1:6003");
        assertThat(Failures.describe(new NoRouteToHostException())).isEqualTo("no route to host");
        assertThat(Failures.describe(new IOException((String) null))).isEqualTo("IO error");
        assertThat(Failures.describe(new IllegalStateException("null"))).isEqualTo("illegal state");
    }

    @Test
    void aRealMessageIsKept() {
        assertThat(Failures.describe(new BindException("Address already in use"))).isEqualTo("Address already in use");
        assertThat(Failures.describe(new IOException("nullable field"))).isEqualTo("nullable field");
    }
}
