package org.fjm2.norm.codec;

import io.netty.buffer.ByteBuf;

/**
 * The payload of a NORM_ACK({@link NormWire#ACK_FJM2_FLOW}), a receiver's report for receiver-paced flow control:
 *
 * <pre>
 * |        read_sequence          |         window_units          |
 * |       released_object         |     flags     |   reserved    |
 * </pre>
 *
 * {@code read_sequence} is the newest common-header sequence number of the sender's messages the receiver has taken
 * off its socket; {@code window_units} how much of the sender's traffic beyond it the receiver's socket buffer holds,
 * in units of {@link #WINDOW_UNIT} bytes as the kernel charges datagrams (their bytes and its bookkeeping); {@code released_object}, valid with {@link #FLAG_RELEASED}, the object up to which (inclusive) the receiver
 * needs nothing more — the continuous form of a watermark acknowledgement.
 */
public final class FlowReport {

    public static final int READ_SEQUENCE_OFFSET = 0;
    public static final int WINDOW_OFFSET = 2;
    public static final int RELEASED_OBJECT_OFFSET = 4;
    public static final int FLAGS_OFFSET = 6;
    /** Bytes per unit of {@code window_units}: windows up to 16 MiB. */
    public static final int WINDOW_UNIT = 256;
    /** Largest {@code window_units}. */
    public static final int MAX_WINDOW_UNITS = 0xFFFF;
    /** Payload length. */
    public static final int LENGTH = 8;
    /** {@code released_object} is valid (the receiver has synchronised to the sender's objects). */
    public static final int FLAG_RELEASED = 0x01;

    private FlowReport() {
    }

    /** Writes the payload at the absolute index; returns its length. */
    public static int write(ByteBuf buf, int index, int readSequence, int windowUnits, int releasedObject,
                            int flags) {
        buf.setShort(index + READ_SEQUENCE_OFFSET, readSequence);
        buf.setShort(index + WINDOW_OFFSET, windowUnits);
        buf.setShort(index + RELEASED_OBJECT_OFFSET, releasedObject);
        buf.setByte(index + FLAGS_OFFSET, flags);
        buf.setByte(index + FLAGS_OFFSET + 1, 0);
        return LENGTH;
    }

    public static int readSequence(FeedbackFlyweight ack) {
        return ack.buffer().getUnsignedShort(ack.payloadIndex() + READ_SEQUENCE_OFFSET);
    }

    /** The window in units of {@link #WINDOW_UNIT} bytes. */
    public static int windowUnits(FeedbackFlyweight ack) {
        return ack.buffer().getUnsignedShort(ack.payloadIndex() + WINDOW_OFFSET);
    }

    public static int releasedObject(FeedbackFlyweight ack) {
        return ack.buffer().getUnsignedShort(ack.payloadIndex() + RELEASED_OBJECT_OFFSET);
    }

    public static int flags(FeedbackFlyweight ack) {
        return ack.buffer().getUnsignedByte(ack.payloadIndex() + FLAGS_OFFSET);
    }
}
