package org.fjm2.bench.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import org.fjm2.bench.aeron.AeronBaseline;
import org.fjm2.bench.aeron.AeronPublisher;
import org.fjm2.bench.aeron.AeronSubscribersMain;
import org.fjm2.bench.jms.ChildJvm;
import org.fjm2.bench.kernel.RmemMax;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Aeron baseline's publisher and subscribers' JVM as {@code bench throughput} runs them, with a counted number of
 * messages: every subscriber (each behind its own media driver) gets every message once and in order, one frame or
 * several; and a publisher that skips and repeats numbers is caught. Multicast on lo: only inside a named network
 * namespace, like {@link JmsScenariosTest}.
 */
class AeronBaselineTest {

    static final Duration TIMEOUT = Duration.ofSeconds(60);
    /** Two sizes: one frame (tryClaim), and one of three frames at the 8 KiB MTU (offer, FragmentAssembler). */
    static final int SMALL = 100;
    static final int FRAGMENTED = 20_000;
    static final int SUBSCRIBERS = 2;

    @BeforeAll
    static void onlyInAPrivateNetworkNamespace() {
        Optional<String> reason = JmsScenariosTest.whyNotInPrivateNamespace();
        reason.ifPresent(r -> System.out.println("skipped: " + r));
        Assumptions.assumeTrue(reason.isEmpty(), () -> reason.orElse(""));
    }

    @Test
    void everySubscriberGetsEveryMessageOnceAndInOrder() throws Exception {
        String drained = publish("239.255.77.117", 37, 2_000, -1);
        assertThat(drained).as("DRAINED gaps duplicates missing, over both subscribers").startsWith("DRAINED 0 0 0 ");
        assertThat(drained).contains("LossGapFills=0");
    }

    @Test
    void aSkippedAndARepeatedNumberAreCounted() throws Exception {
        // message 700 goes out as 701, and 701 as 701 again: one gap and one duplicate at each subscriber
        String drained = publish("239.255.77.119", 38, 1_000, 700);
        assertThat(drained).startsWith("DRAINED " + SUBSCRIBERS + " " + SUBSCRIBERS + " 0 ");
    }

    /**
     * Publishes {@code count} messages of each size to a subscribers' JVM and returns its DRAINED line; message
     * {@code skip} (if not -1), of the small ones, is numbered as its successor.
     */
    private static String publish(String group, int portOffset, int count, long skip) throws Exception {
        String address = AeronBaseline.interfaceAddress("lo");
        int port = UdpBenchmark.basePort() + portOffset;
        OptionalLong cap = RmemMax.current();
        try (ChildJvm child = ChildJvm.start(AeronSubscribersMain.class, List.of(),
                AeronBaseline.subscriptionChannel(group, port, address, cap), String.valueOf(AeronBaseline.STREAM_ID),
                String.valueOf(SUBSCRIBERS));
             AeronPublisher publisher = new AeronPublisher(AeronBaseline.publicationChannel(group, port, address,
                     SUBSCRIBERS, cap, OptionalLong.empty(), FRAGMENTED), AeronBaseline.STREAM_ID)) {
            child.await("READY", TIMEOUT);
            publisher.awaitSubscribers(TIMEOUT);
            long seq = 0;
            for (int i = 0; i < count; i++, seq++) {
                publisher.send(seq == skip ? seq + 1 : seq, 0, SMALL);
            }
            for (int i = 0; i < count; i++, seq++) {
                publisher.send(seq, 0, FRAGMENTED);
            }
            child.send("DRAIN " + (seq - 1));
            return child.await("DRAINED", TIMEOUT);
        }
    }
}
