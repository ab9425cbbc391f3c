package org.fjm2.norm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.transport.LossInjector;
import org.fjm2.norm.transport.LossyTransport;
import org.fjm2.norm.transport.OwnPacketFilter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every transport (Netty epoll, Netty NIO, JDK channels) carries a lossy transfer to completion, from direct and
 * heap object data (epoll sends direct data without copying it: header and payload gathered into one datagram). With
 * epoll the kernel drops the sender's own looped-back datagrams (a socket filter); the others discard them in Java.
 */
class TransportVariantsTest {

    @ParameterizedTest
    @ValueSource(strings = {"epoll", "nio", "jdk"})
    void lossyTransferCompletesOverEachTransport(String transport) throws Exception {
        NormConfig base = TestGroups.fresh().toBuilder().transport(transport).build();
        int objects = 300;
        int[] sizes = TestObjects.logUniformSizes(objects, 100, 200_000, 77);
        ObjectCollector a = new ObjectCollector();
        ObjectCollector b = new ObjectCollector();
        try (NormSession rxA = NormSession.open(base.toBuilder().nodeId(81).build(), a, 1,
                LossyTransport.around(LossInjector.random(0.1, 81), null));
             NormSession rxB = NormSession.open(base.toBuilder().nodeId(82).build(), b, 2,
                     LossyTransport.around(LossInjector.random(0.1, 82), null));
             NormSession tx = NormSession.open(base.toBuilder().nodeId(80).build(), null, 3)) {
            assertThat(tx.transportKind()).isEqualTo(transport);
            long[] crcs = new long[objects];
            for (int i = 0; i < objects; i++) {
                byte[] content = TestObjects.content(77, i, sizes[i]);
                crcs[i] = ObjectCollector.crc(content);
                ByteBuf data = i % 2 == 0 ? Unpooled.wrappedBuffer(content)
                        : Unpooled.directBuffer(content.length).writeBytes(content);
                assertThat(tx.enqueue(data, null, 4, 30, TimeUnit.SECONDS)).isGreaterThanOrEqualTo(0);
            }
            for (ObjectCollector c : new ObjectCollector[] {a, b}) {
                assertThat(c.await(objects, 60, TimeUnit.SECONDS)).as("%s: %s / %s", transport, rxA.counters(),
                        tx.counters()).isTrue();
                assertThat(c.lost()).isEmpty();
                for (int i = 0; i < objects; i++) {
                    assertThat(c.received().get(i).crc()).isEqualTo(crcs[i]);
                }
            }
            long ownIgnored = tx.counters().get(Counter.OWN_PACKETS_IGNORED);
            assertThat(tx.counters().get(Counter.PACKETS_SENT)).isGreaterThan(objects);
            if (transport.equals("epoll") && OwnPacketFilter.supported()) {
                assertThat(ownIgnored).as("own datagrams that reached Java past the socket filter").isZero();
            } else {
                assertThat(ownIgnored).as("own datagrams heard and discarded in Java").isPositive();
            }
        }
    }
}
