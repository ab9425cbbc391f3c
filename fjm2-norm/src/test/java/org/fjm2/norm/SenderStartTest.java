package org.fjm2.norm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.ObjectMessageFlyweight;
import org.fjm2.norm.transport.LossInjector;
import org.fjm2.norm.transport.LossyTransport;
import org.junit.jupiter.api.Test;

/**
 * Where a receiver starts with a new sender (SenderStart, EXT_FJM2_START): a receiver that was there before the
 * sender started and lost everything of its first objects (and its probes) asks for them (it used to start at the first
 * object it heard and miss them for good); a receiver that came after the sender started still starts where it
 * first hears it.
 */
class SenderStartTest {

    static final int OBJECTS = 20;
    static final int SIZE = 1_000;
    static final long SALT = 31;

    /**
     * Drops everything the sender sends (data, probes, flushes) until the first transmission of its object
     * {@code first + count}: this receiver misses the sender's start.
     */
    static Predicate<ByteBuf> missesTheStart(int count) {
        ObjectMessageFlyweight msg = new ObjectMessageFlyweight();
        int[] first = {-1};
        boolean[] passing = {false};
        return buf -> {
            if (passing[0]) {
                return false;
            }
            if ((buf.getUnsignedByte(buf.readerIndex()) & 0x0F) == NormWire.TYPE_DATA) {
                msg.wrap(buf);
                if (first[0] < 0) {
                    first[0] = msg.objectId();
                }
                passing[0] = !msg.hasFlag(NormWire.FLAG_REPAIR) && ((msg.objectId() - first[0]) & 0xFFFF) >= count;
            }
            return !passing[0];
        };
    }

    private static void send(NormSession tx, int from, int count) throws Exception {
        for (int i = from; i < from + count; i++) {
            assertThat(tx.enqueue(Unpooled.wrappedBuffer(TestObjects.content(SALT, i, SIZE)), null, 4, 10,
                    TimeUnit.SECONDS)).isGreaterThanOrEqualTo(0);
        }
    }

    @Test
    void aReceiverThereBeforeTheSenderStartedAsksForTheFirstObjectsItLost() throws Exception {
        NormConfig group = TestGroups.fresh().toBuilder().txRate(50_000_000L).build();
        ObjectCollector received = new ObjectCollector();
        try (NormSession rx = NormSession.open(group.toBuilder().nodeId(41).build(), received, 41,
                LossyTransport.around(LossInjector.matching(missesTheStart(3)), null));
             NormSession tx = NormSession.open(group.toBuilder().nodeId(40).build(), null, 40)) {
            send(tx, 0, OBJECTS);
            assertThat(received.await(OBJECTS, 20, TimeUnit.SECONDS)).as("%s; receiver %s", received,
                    rx.counters()).isTrue();
            assertThat(received.lost()).isEmpty();
            assertThat(rx.counters().get(org.fjm2.norm.api.NormCounters.Counter.RX_LOSS_INJECTED))
                    .as("the sender's start was lost").isGreaterThanOrEqualTo(3);
            assertThat(received.received()).extracting(ObjectCollector.Received::crc).as("every object, in order")
                    .containsExactlyElementsOf(java.util.stream.IntStream.range(0, OBJECTS)
                            .mapToObj(i -> ObjectCollector.crc(TestObjects.content(SALT, i, SIZE))).toList());
        }
    }

    /** How long after the sender's first objects the late receiver opens (see the test). */
    private static final long LATE_JOIN_MARGIN_MILLIS = 500;

    @Test
    void aReceiverThatCameAfterTheSenderStartedStartsWhereItFirstHearsIt() throws Exception {
        NormConfig group = TestGroups.fresh().toBuilder().txRate(50_000_000L).build();
        ObjectCollector early = new ObjectCollector();
        ObjectCollector late = new ObjectCollector();
        try (NormSession first = NormSession.open(group.toBuilder().nodeId(42).build(), early, 42);
             NormSession tx = NormSession.open(group.toBuilder().nodeId(40).build(), null, 40)) {
            send(tx, 0, OBJECTS);
            assertThat(early.await(OBJECTS, 20, TimeUnit.SECONDS)).as("%s", early).isTrue();
            // "Came after" by a margin: a receiver judges from the announced age (whole ms) and the time it handles
            // the datagram, so one opened within its own receive delay of the first object counts as there before
            // it (and asks for the first objects). Half a second is far beyond that delay, well within the 2 s
            // announcement.
            Thread.sleep(LATE_JOIN_MARGIN_MILLIS);
            try (NormSession second = NormSession.open(group.toBuilder().nodeId(43).build(), late, 43)) {
                send(tx, OBJECTS, OBJECTS);     // still within the sender's start announcement
                assertThat(late.await(OBJECTS, 20, TimeUnit.SECONDS)).as("%s", late).isTrue();
                assertThat(early.await(2 * OBJECTS, 20, TimeUnit.SECONDS)).as("%s", early).isTrue();
                // in order: had it started at the sender's first object, those would have come first
                assertThat(late.received()).extracting(ObjectCollector.Received::crc)
                        .as("nothing sent before it came")
                        .doesNotContainAnyElementsOf(java.util.stream.IntStream.range(0, OBJECTS)
                                .mapToObj(i -> ObjectCollector.crc(TestObjects.content(SALT, i, SIZE))).toList());
            }
        }
    }
}
