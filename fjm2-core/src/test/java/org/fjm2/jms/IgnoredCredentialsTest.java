package org.fjm2.jms;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.jms.Connection;
import jakarta.jms.JMSContext;
import jakarta.jms.TopicConnection;

import org.junit.jupiter.api.Test;

/** User names and passwords are accepted, ignored, and that is said once, without the password. */
class IgnoredCredentialsTest {

    @Test
    void credentialsAreIgnoredAndReportedOnceWithoutThePassword() throws Exception {
        Fjm2ConnectionFactory factory = new Fjm2ConnectionFactory(InMem.newUrl());
        IgnoredCredentials.resetForTests();
        try (LogCapture log = new LogCapture()) {
            try (Connection c = factory.createConnection("alice", "s3cret-pw")) {
                assertThat(c).isInstanceOf(Fjm2Connection.class);
            }
            try (TopicConnection c = factory.createTopicConnection("alice", "s3cret-pw");
                 JMSContext context = factory.createContext("bob", "other-pw", JMSContext.AUTO_ACKNOWLEDGE)) {
                context.createProducer().send(context.createTopic("t"), "works");
            }
            assertThat(log.lines("does not authenticate users")).hasSize(1);
            assertThat(log.lines("does not authenticate users").get(0)).contains("'alice'").contains("keyFile")
                    .doesNotContain("s3cret-pw");
            assertThat(log.lines("pw")).isEmpty();
        }
    }

    @Test
    void noCredentialsNoWarning() throws Exception {
        Fjm2ConnectionFactory factory = new Fjm2ConnectionFactory(InMem.newUrl());
        IgnoredCredentials.resetForTests();
        try (LogCapture log = new LogCapture()) {
            factory.createConnection(null, null).close();
            factory.createConnection().close();
            assertThat(log.lines("authenticate")).isEmpty();
        }
    }
}
