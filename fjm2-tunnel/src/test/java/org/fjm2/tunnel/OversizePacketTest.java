package org.fjm2.tunnel;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.fjm2.norm.NormSession;
import org.fjm2.norm.ObjectCollector;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.codec.HeaderExtensions;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.ObjectMessageFlyweight;
import org.fjm2.tunnel.relay.RelayCounters.Counter;
import org.junit.jupiter.api.Test;

/**
 * A NORM sender of another implementation may use segments up to the UDP limit (loopback and jumbo frames allow
 * them): such a NORM_DATA no longer fits a tunnel frame in one UDP datagram. The daemon counts and drops it instead
 * of failing on the socket, and an ordinary sender on the same LAN still reaches LAN B complete.
 */
class OversizePacketTest {

    static final int FOREIGN_NODE = 555;
    /** With its 32 header bytes, the largest UDP payload: 65,507 bytes. */
    static final int FOREIGN_PAYLOAD = 65_475;

    @Test
    void packetsTooLargeForATunnelFrameAreCountedAndDropped() throws Exception {
        NormConfig lanA = LoopbackLans.lan();
        NormConfig lanB = LoopbackLans.lan();
        List<NormSession> sessions = new ArrayList<>();
        try (TunnelDaemon a = LoopbackLans.tunnel(lanA, "big-a", null);
             TunnelDaemon b = LoopbackLans.tunnel(lanB, "big-b", null);
             DatagramChannel foreign = DatagramChannel.open(StandardProtocolFamily.INET)) {
            LoopbackLans.fullMesh(a, b);
            ObjectCollector atB = new ObjectCollector();
            sessions.add(NormSession.open(lanB.toBuilder().nodeId(200).build(), atB, 1));
            NormSession ordinary = NormSession.open(lanA.toBuilder().nodeId(101).build(), null, 3);
            sessions.add(ordinary);
            foreign.setOption(StandardSocketOptions.IP_MULTICAST_IF, NetworkInterface.getByName("lo"));
            InetSocketAddress group = new InetSocketAddress(lanA.group(), lanA.port());
            for (int i = 0; i < 3; i++) {
                ByteBuf datagram = oversizeData(i);
                assertThat(foreign.send(datagram.nioBuffer(), group)).as("bytes sent").isEqualTo(datagram.readableBytes());
                datagram.release();
            }
            LoopbackLans.Sent sent = LoopbackLans.send(ordinary, 50, 100, 100_000, 52);
            assertThat(LoopbackLans.awaitFrom(atB, 101, 50, 60)).as(a.getStatusLine()).isTrue();
            LoopbackLans.assertReceivedAll(atB, sent, "LAN B");
            assertThat(a.counters().get(Counter.OVERSIZE)).as(a.getStatusLine()).isEqualTo(3);
            assertThat(a.counters().get(Counter.SEND_ERRORS)).as(a.getStatusLine()).isZero();
            assertThat(atB.received().stream().filter(r -> r.senderId() == FOREIGN_NODE)).isEmpty();
        } finally {
            sessions.forEach(NormSession::close);
        }
    }

    /** A well-formed NORM_DATA of one 65,475-byte segment (object {@code objectId} of the foreign sender). */
    private static ByteBuf oversizeData(int objectId) {
        ByteBuf buf = Unpooled.buffer(FOREIGN_PAYLOAD + 128);
        ObjectMessageFlyweight m = new ObjectMessageFlyweight().wrap(buf, 0, buf.capacity());
        m.writeObjectHeader(NormWire.TYPE_DATA, objectId, FOREIGN_NODE, 0x4242, 100, 4, 3, 0, NormWire.FEC_RS8,
                objectId);
        m.writePayloadId(8, 0, 0, 1);
        int header = ObjectMessageFlyweight.baseHeaderLength(NormWire.TYPE_DATA, NormWire.FEC_RS8);
        header += HeaderExtensions.writeFti(buf, header, NormWire.FEC_RS8, 8, FOREIGN_PAYLOAD, FOREIGN_PAYLOAD, 1, 0);
        m.headerLength(header);
        buf.writerIndex(header + FOREIGN_PAYLOAD);
        return buf;
    }
}
