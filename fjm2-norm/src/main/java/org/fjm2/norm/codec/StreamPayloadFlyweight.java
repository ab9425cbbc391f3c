package org.fjm2.norm.codec;

import io.netty.buffer.ByteBuf;

/**
 * The payload of a NORM_DATA source symbol of a NORM_OBJECT_STREAM (RFC 5740 section 4.2.1): an 8-byte stream
 * payload header, then the stream bytes. The layout is NRL NORM's ({@code NormDataMsg}: PAYLOAD_LENGTH_OFFSET 0,
 * PAYLOAD_MSG_START_OFFSET 2, PAYLOAD_OFFSET_OFFSET 4), which is what interoperates:
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * |          payload_len          |       payload_msg_start       |
 * |                        payload_offset                         |
 * |                  payload_data (payload_len bytes)             |
 * </pre>
 *
 * <ul>
 *   <li>payload_len: stream bytes in this segment, at most the segment size; 0 makes the segment a stream control
 *       message, whose payload_msg_start is the control code (0: end of stream, the only one defined);</li>
 *   <li>payload_msg_start: 0 when no application message starts in this segment, else 1 + the index in payload_data
 *       of the first byte of the first message that starts here (later message starts in the segment are not
 *       marked);</li>
 *   <li>payload_offset: the stream offset of payload_data's first byte, modulo 2^32.</li>
 * </ul>
 *
 * RFC 5740 calls the first 16 bits payload_reserved in one place; NRL NORM (since 1.3b8: "Re-ordered NORM_DATA
 * payload_length and payload_msg_start fields to be consistent with revised NORM spec") puts the length there.
 * Parity symbols of a stream are computed over the whole payload, this header included, zero-padded to
 * segment size + {@link #HEADER_LENGTH} bytes. A view over a buffer, no allocation; the caller checks the bounds
 * ({@link #fits}) before reading.
 */
public final class StreamPayloadFlyweight {

    public static final int LENGTH_OFFSET = 0;
    public static final int MSG_START_OFFSET = 2;
    public static final int OFFSET_OFFSET = 4;
    /** Length of the stream payload header. */
    public static final int HEADER_LENGTH = ObjectMessageFlyweight.STREAM_PAYLOAD_HEADER_LENGTH;
    /** payload_msg_start of a control message (payload_len 0) that ends the stream. */
    public static final int CONTROL_END_OF_STREAM = 0;

    private ByteBuf buffer;
    private int index;
    private int length;

    /** Views {@code length} payload bytes at absolute index {@code index}. */
    public StreamPayloadFlyweight wrap(ByteBuf buffer, int index, int length) {
        this.buffer = buffer;
        this.index = index;
        this.length = length;
        return this;
    }

    /** Views the payload of a NORM_DATA message. */
    public StreamPayloadFlyweight wrap(ObjectMessageFlyweight msg) {
        return wrap(msg.buffer(), msg.payloadIndex(), msg.payloadLength());
    }

    /**
     * Whether the header and the {@link #dataLength()} bytes it announces lie inside the viewed payload, and the
     * announced length is at most {@code segmentSize}.
     */
    public boolean fits(int segmentSize) {
        if (length < HEADER_LENGTH) {
            return false;
        }
        int data = dataLength();
        return data <= segmentSize && HEADER_LENGTH + data <= length;
    }

    /** payload_len: stream bytes in the segment. */
    public int dataLength() {
        return buffer.getUnsignedShort(index + LENGTH_OFFSET);
    }

    /** payload_msg_start: 0, or 1 + the index of the first message start in the data. */
    public int messageStart() {
        return buffer.getUnsignedShort(index + MSG_START_OFFSET);
    }

    /** payload_offset: the stream offset of the first data byte, modulo 2^32. */
    public long streamOffset() {
        return buffer.getUnsignedInt(index + OFFSET_OFFSET);
    }

    /** Whether this is a control message (payload_len 0). */
    public boolean isControl() {
        return dataLength() == 0;
    }

    /** Whether this is the control message that ends the stream. */
    public boolean isEndOfStream() {
        return dataLength() == 0 && messageStart() == CONTROL_END_OF_STREAM;
    }

    /**
     * Whether payload_msg_start is consistent with payload_len: a data segment's message start lies inside its
     * data; a control message's code is not checked here.
     */
    public boolean messageStartValid() {
        int start = messageStart();
        return dataLength() == 0 || start <= dataLength();
    }

    /** Absolute index of the first data byte. */
    public int dataIndex() {
        return index + HEADER_LENGTH;
    }

    public ByteBuf buffer() {
        return buffer;
    }

    /** Writes the header: {@code dataLength} bytes at {@code streamOffset}, message start code. */
    public void writeHeader(int dataLength, int messageStart, long streamOffset) {
        buffer.setShort(index + LENGTH_OFFSET, dataLength);
        buffer.setShort(index + MSG_START_OFFSET, messageStart);
        buffer.setInt(index + OFFSET_OFFSET, (int) streamOffset);
    }
}
