package org.fjm2.norm;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.InetSocketAddress;
import java.net.MulticastSocket;
import java.net.NetworkInterface;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.codec.CommandFlyweight;
import org.fjm2.norm.codec.FeedbackFlyweight;
import org.fjm2.norm.codec.HeaderExtensions;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.ObjectMessageFlyweight;
import org.fjm2.norm.codec.Quantizer;
import org.fjm2.norm.codec.RepairRequestWriter;

/**
 * What a node on the LAN without any key can send: hand-made NORM messages with whatever header values it likes,
 * sent from a plain socket to the group. For hostile-input tests.
 */
public final class ForgedPackets implements AutoCloseable {

    /** Largest GRTT a header can carry: keeps a receiver's back-off running for the whole test. */
    public static final int GRTT_MAX = 255;

    private final MulticastSocket socket;
    private final InetSocketAddress group;

    public ForgedPackets(NormConfig target) throws IOException {
        this.group = new InetSocketAddress(target.group(), target.port());
        this.socket = new MulticastSocket(0);
        socket.setNetworkInterface(NetworkInterface.getByName("lo"));
        socket.setTimeToLive(1);
    }

    public void send(ByteBuf packet) throws IOException {
        byte[] bytes = ByteBufUtil.getBytes(packet);
        socket.send(new DatagramPacket(bytes, bytes.length, group));
    }

    /** NORM_DATA of one symbol, with an FTI extension of the attacker's choosing (fec_id 2 or 5). */
    public static ByteBuf data(int source, int instance, int objectId, int fecId, int m, long transferLength,
                        int segmentSize, int maxBlockLength, int lastField, long block, int symbol, int payloadLength) {
        ByteBuf buf = Unpooled.buffer(128 + payloadLength);
        ObjectMessageFlyweight msg = new ObjectMessageFlyweight().wrap(buf, 0, buf.capacity());
        msg.writeObjectHeader(NormWire.TYPE_DATA, 1, source, instance, GRTT_MAX, 4, 0, 0, fecId, objectId);
        msg.writePayloadId(m, block, symbol, maxBlockLength);
        int header = ObjectMessageFlyweight.baseHeaderLength(NormWire.TYPE_DATA, fecId);
        header += HeaderExtensions.writeFti(buf, header, fecId, m, transferLength, segmentSize, maxBlockLength,
                lastField);
        msg.headerLength(header);
        buf.setZero(header, payloadLength);
        buf.writerIndex(header + payloadLength);
        return buf;
    }

    /** The 52-byte datagram: fec_id 2, m = 16, 64 MiB announced, E = 16, B = 512, max_n = 65,024. */
    public static ByteBuf hugeObjectAnnouncement(int source, int objectId) {
        return data(source, 1, objectId, NormWire.FEC_RS, 16, 64L << 20, 16, 512, 65_024, 0, 0, 16);
    }

    public static ByteBuf command(int flavor, int source, int instance) {
        ByteBuf buf = Unpooled.buffer(64);
        CommandFlyweight cmd = new CommandFlyweight().wrap(buf, 0, buf.capacity());
        cmd.writeCommandHeader(flavor, 1, source, instance, GRTT_MAX, 4, 0);
        int header = CommandFlyweight.baseHeaderLength(flavor, NormWire.FEC_RS8);
        cmd.headerLength(header);
        buf.writerIndex(header);
        return buf;
    }

    public static ByteBuf eot(int source) {
        return command(NormWire.CMD_EOT, source, 1);
    }

    /** NORM_CMD(SQUELCH) saying the sender holds nothing before {@code objectId}. */
    public static ByteBuf squelch(int source, int instance, int objectId) {
        ByteBuf buf = Unpooled.buffer(64);
        CommandFlyweight cmd = new CommandFlyweight().wrap(buf, 0, buf.capacity());
        cmd.writeCommandHeader(NormWire.CMD_SQUELCH, 1, source, instance, GRTT_MAX, 4, 0);
        int header = cmd.writeObjectPosition(NormWire.FEC_RS8, 8, objectId, 0, 0, 64);
        cmd.headerLength(header);
        buf.writerIndex(header);
        return buf;
    }

    /** A NACK from {@code source} to sender {@code server}: a writer fills its repair requests. */
    public static ByteBuf nack(int source, int server, int instance, int fecId, int m,
                        java.util.function.Consumer<RepairRequestWriter> requests) {
        ByteBuf buf = Unpooled.buffer(FeedbackFlyweight.HEADER_LENGTH + 1400);
        FeedbackFlyweight f = new FeedbackFlyweight().wrap(buf, 0, buf.capacity());
        f.writeFeedbackHeader(NormWire.TYPE_NACK, 1, source, server, instance, 0, 0, 0, 0);
        f.headerLength(FeedbackFlyweight.HEADER_LENGTH);
        RepairRequestWriter writer = new RepairRequestWriter().reset(buf, FeedbackFlyweight.HEADER_LENGTH, 1400,
                fecId, m);
        requests.accept(writer);
        writer.close();
        buf.writerIndex(FeedbackFlyweight.HEADER_LENGTH + writer.length());
        return buf;
    }

    /** A NORM_ACK(CC) from {@code source} to sender {@code server} with EXT_CC_FEEDBACK of the forger's choosing. */
    public static ByteBuf ccAck(int source, int server, int instance, int ccSequence, int flags, double rttSeconds,
                                double loss, double bytesPerSecond) {
        int length = FeedbackFlyweight.HEADER_LENGTH + HeaderExtensions.CC_FEEDBACK_LENGTH;
        ByteBuf buf = Unpooled.buffer(length);
        FeedbackFlyweight f = new FeedbackFlyweight().wrap(buf, 0, length);
        f.writeFeedbackHeader(NormWire.TYPE_ACK, 1, source, server, instance, NormWire.ACK_CC, 0, 0, 0);
        f.headerLength(length);
        HeaderExtensions.writeCcFeedback(buf, FeedbackFlyweight.HEADER_LENGTH, ccSequence, flags,
                Quantizer.quantizeRtt(rttSeconds), Quantizer.quantizeLoss32(loss), Quantizer.quantizeRate(bytesPerSecond));
        buf.writerIndex(length);
        return buf;
    }

    @Override
    public void close() {
        socket.close();
    }
}
