package org.fjm2.norm.engine;

import java.net.InetSocketAddress;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.codec.CommandFlyweight;
import org.fjm2.norm.codec.FeedbackFlyweight;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.ObjectMessageFlyweight;
import org.fjm2.norm.receiver.RemoteSender;
import org.fjm2.norm.receiver.RemoteSenderTable;
import org.fjm2.norm.sender.NormSender;

/**
 * The last inbound step: a valid datagram from another node goes to the receiver state of its sender (data, info,
 * commands), to our sender (NACKs and ACKs addressed to us), or to the receiver state of the sender another
 * receiver's NACK is for (suppression). Flyweights are reused: nothing is allocated per datagram.
 */
final class Dispatcher implements InboundStep {

    private final int nodeId;
    private final NormSender sender;
    private final RemoteSenderTable remoteSenders;
    private final ObjectMessageFlyweight objectMessage = new ObjectMessageFlyweight();
    private final CommandFlyweight command = new CommandFlyweight();
    private final FeedbackFlyweight feedback = new FeedbackFlyweight();

    Dispatcher(int nodeId, NormSender sender, RemoteSenderTable remoteSenders) {
        this.nodeId = nodeId;
        this.sender = sender;
        this.remoteSenders = remoteSenders;
    }

    @Override
    public boolean pass(ByteBuf datagram, InetSocketAddress from) {
        int sourceId = datagram.getInt(datagram.readerIndex() + 4);
        int type = datagram.getUnsignedByte(datagram.readerIndex()) & 0x0F;
        switch (type) {
            case NormWire.TYPE_DATA:
            case NormWire.TYPE_INFO: {
                objectMessage.wrap(datagram);
                RemoteSender rs = remoteSenders.heard(sourceId, objectMessage.instanceId(), from);
                rs.onObjectMessage(objectMessage, from);
                break;
            }
            case NormWire.TYPE_CMD: {
                command.wrap(datagram);
                RemoteSender rs = remoteSenders.heard(sourceId, command.instanceId(), from);
                rs.onCommand(command, from);
                break;
            }
            case NormWire.TYPE_NACK: {
                feedback.wrap(datagram);
                if (feedback.serverId() == nodeId) {
                    sender.onNack(feedback);
                } else {
                    RemoteSender rs = remoteSenders.get(feedback.serverId());
                    if (rs != null && rs.instanceId() == feedback.instanceId()) {
                        rs.onOtherNack(feedback);
                    }
                }
                break;
            }
            case NormWire.TYPE_ACK: {
                feedback.wrap(datagram);
                if (feedback.serverId() == nodeId) {
                    sender.onAck(feedback);
                } else {
                    RemoteSender rs = remoteSenders.get(feedback.serverId());
                    if (rs != null && rs.instanceId() == feedback.instanceId()) {
                        rs.onOtherAck(feedback);
                    }
                }
                break;
            }
            default:
                break;
        }
        return true;
    }
}
