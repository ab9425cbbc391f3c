package org.fjm2.containers;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.junit.jupiter.Testcontainers;

import java.time.Duration;

/**
 * JMS over NORM between two containers on a user-defined Docker network (its bridge carries the multicast):
 * {@code fjm2 subscribe} in one receives every message {@code fjm2 publish} sends in the other. Skipped, with the
 * reason, where no Docker engine runs.
 */
@ExtendWith(DockerNotice.class)
@Testcontainers(disabledWithoutDocker = true)
class PubSubContainerTest {

    private static final int MESSAGES = 1000;
    private static final String URL = "norm://239.255.0.7:6007?interface=eth0&rate=20m";
    private static final String TOPIC = "containers";
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    @Test
    void aSubscriberInOneContainerReceivesEveryMessageOfAPublisherInAnother() throws Exception {
        try (Network network = Network.newNetwork();
             GenericContainer<?> subscriber = Fjm2Images.fjm2(network, "subscriber", "subscribe", "--url", URL,
                     "--topic", TOPIC, "--count", Integer.toString(MESSAGES), "--quiet", "--timeout", "30s")
                     .waitingFor(Wait.forLogMessage(".*subscribed to.*", 1).withStartupTimeout(TIMEOUT));
             GenericContainer<?> publisher = Fjm2Images.fjm2(network, "publisher", "publish", "--url", URL,
                     "--topic", TOPIC, "--count", Integer.toString(MESSAGES))) {
            subscriber.start();
            publisher.start();

            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (subscriber.isRunning() && System.nanoTime() - deadline < 0) {
                Thread.sleep(200);
            }
            String log = subscriber.getLogs();
            assertThat(subscriber.isRunning()).as("the subscriber finished within %s; its log:%n%s", TIMEOUT, log)
                    .isFalse();
            assertThat(subscriber.getCurrentContainerInfo().getState().getExitCodeLong())
                    .as("the subscriber's exit code; its log:%n%s", log).isZero();
            assertThat(log).contains("received " + MESSAGES + " messages").contains("lost 0");
        }
    }
}
