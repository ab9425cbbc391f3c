package org.fjm2.norm.fuzz;

import java.util.ArrayList;
import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.fjm2.norm.codec.CommandFlyweight;
import org.fjm2.norm.codec.HeaderExtensions;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.ObjectMessageFlyweight;
import org.fjm2.norm.codec.StreamPayloadFlyweight;
import org.fjm2.norm.fec.FecCodec;

/**
 * A stream sender's datagrams, built the way NRL NORM's stream writer cuts a stream (independently of FJM2's own
 * sender, so that receiver tests do not share its mistakes): {@link #write} fills segments of E bytes, a message
 * start marks the first message starting in a segment, {@link #flush} closes a partly filled segment, {@link #end}
 * appends the end-of-stream control segment; segment n is symbol n mod B of block n / B. NORM_DATA (source and RS8
 * parity over E + 8 bytes), FLUSH and SQUELCH for any of it, and hand-made segments with any header (hostile tests).
 */
public final class StreamDatagrams {

    /** grtt byte of about 1 ms: NACK back-off ends within a test. */
    public static final int GRTT_1MS = 0x8C;

    private final int source;
    private final int instance;
    private final int streamId;
    private final int segmentSize;
    private final int blockSize;
    private final int parity;
    private final long bufferBytes;
    private final List<byte[]> segments = new ArrayList<>();
    private final ByteBuf current;
    private boolean open;
    private boolean messageStart = true;
    /** Data messages say the stream has a NORM_INFO (NORM_FLAG_INFO). */
    private boolean hasInfo;
    private long offset;
    private final FecCodec codec = FecCodec.forFecId(FecCodec.FEC_ID_RS8, 8);
    private final ByteBuf out = Unpooled.buffer(70_000);
    private final ObjectMessageFlyweight message = new ObjectMessageFlyweight();
    private final CommandFlyweight command = new CommandFlyweight();
    private final StreamPayloadFlyweight payload = new StreamPayloadFlyweight();

    /**
     * @param bufferBytes what the FTI announces (the sender's stream buffer)
     */
    public StreamDatagrams(int source, int instance, int streamId, int segmentSize, int blockSize, int parity,
                           long bufferBytes) {
        this.source = source;
        this.instance = instance;
        this.streamId = streamId;
        this.segmentSize = segmentSize;
        this.blockSize = blockSize;
        this.parity = parity;
        this.bufferBytes = bufferBytes;
        this.current = Unpooled.buffer(segmentSize + StreamPayloadFlyweight.HEADER_LENGTH);
    }

    public int segmentSize() {
        return segmentSize;
    }

    public int blockSize() {
        return blockSize;
    }

    /** Parity symbols per block (the FTI's last field). */
    public int parityCount() {
        return parity;
    }

    /** Segments closed so far. */
    public int segments() {
        return segments.size();
    }

    /** The stream offset the next byte written gets. */
    public long offset() {
        return offset;
    }

    /** Appends stream bytes; {@code endOfMessage}: the next write starts a message (NormStreamMarkEom). */
    public StreamDatagrams write(byte[] data, boolean endOfMessage) {
        int i = 0;
        while (i < data.length) {
            if (!open) {
                current.clear();
                current.writeZero(StreamPayloadFlyweight.HEADER_LENGTH);
                payload.wrap(current, 0, StreamPayloadFlyweight.HEADER_LENGTH).writeHeader(0, 0, offset);
                open = true;
            }
            int used = current.writerIndex() - StreamPayloadFlyweight.HEADER_LENGTH;
            if (messageStart) {
                if (payload.wrap(current, 0, current.writerIndex()).messageStart() == 0) {
                    current.setShort(StreamPayloadFlyweight.MSG_START_OFFSET, used + 1);
                }
                messageStart = false;
            }
            int n = Math.min(data.length - i, segmentSize - used);
            current.writeBytes(data, i, n);
            current.setShort(StreamPayloadFlyweight.LENGTH_OFFSET, used + n);
            i += n;
            offset += n;
            if (used + n == segmentSize) {
                close();
            }
        }
        if (endOfMessage) {
            messageStart = true;
        }
        return this;
    }

    /** Closes a partly filled segment (a flush). */
    public StreamDatagrams flush() {
        if (open) {
            close();
        }
        return this;
    }

    /** Appends the end-of-stream control segment (payload_len 0, payload_msg_start 0). */
    public StreamDatagrams end() {
        flush();
        byte[] control = new byte[StreamPayloadFlyweight.HEADER_LENGTH];
        payload.wrap(Unpooled.wrappedBuffer(control), 0, control.length).writeHeader(0, 0, offset);
        segments.add(control);
        return this;
    }

    private void close() {
        segments.add(ByteBufUtil.getBytes(current, 0, current.writerIndex()));
        open = false;
    }

    /** The NORM_DATA of segment {@code n}. */
    public byte[] segment(int n, boolean repair) {
        return data(n / blockSize, n % blockSize, segments.get(n), repair);
    }

    /** Every segment's NORM_DATA, in order, first transmissions. */
    public List<byte[]> all() {
        List<byte[]> all = new ArrayList<>();
        for (int n = 0; n < segments.size(); n++) {
            all.add(segment(n, false));
        }
        return all;
    }

    /** A NORM_DATA for (block, symbol) with this payload (any bytes: hostile tests). */
    public byte[] data(long block, int symbol, byte[] body, boolean repair) {
        out.clear();
        out.writeZero(64);
        message.wrap(out, 0, out.capacity());
        int flags = NormWire.FLAG_STREAM | (repair ? NormWire.FLAG_REPAIR : 0) | (hasInfo ? NormWire.FLAG_INFO : 0);
        message.writeObjectHeader(NormWire.TYPE_DATA, 0, source, instance, GRTT_1MS, 4, 0, flags,
                NormWire.FEC_RS8, streamId);
        message.writePayloadId(8, block, symbol, blockSize);
        return withFti(ObjectMessageFlyweight.baseHeaderLength(NormWire.TYPE_DATA, NormWire.FEC_RS8), body);
    }

    /** Ends the message begun in {@code out}: the stream's FTI after its first {@code header} bytes, then the body. */
    private byte[] withFti(int header, byte[] body) {
        header += HeaderExtensions.writeFti(out, header, NormWire.FEC_RS8, 8, bufferBytes, segmentSize, blockSize,
                parity);
        message.headerLength(header);
        out.writerIndex(header);
        out.writeBytes(body);
        return ByteBufUtil.getBytes(out, 0, out.writerIndex());
    }

    /** From now on the stream's NORM_DATA say it has a NORM_INFO (as NRL's do for a stream opened with info). */
    public StreamDatagrams announceInfo() {
        hasInfo = true;
        return this;
    }

    /** The stream's NORM_INFO carrying {@code info} (any bytes), with the stream's FTI, as NRL sends it. */
    public byte[] info(byte[] info, boolean repair) {
        out.clear();
        out.writeZero(64);
        message.wrap(out, 0, out.capacity());
        int flags = NormWire.FLAG_STREAM | NormWire.FLAG_INFO | (repair ? NormWire.FLAG_REPAIR : 0);
        message.writeObjectHeader(NormWire.TYPE_INFO, 0, source, instance, GRTT_1MS, 4, 0, flags,
                NormWire.FEC_RS8, streamId);
        return withFti(ObjectMessageFlyweight.INFO_HEADER_LENGTH, info);
    }

    /** A segment with any header fields (payload_len, payload_msg_start, payload_offset) and data. */
    public byte[] handMade(long block, int symbol, int dataLength, int messageStart, long streamOffset, byte[] data,
                           boolean repair) {
        byte[] body = new byte[StreamPayloadFlyweight.HEADER_LENGTH + data.length];
        payload.wrap(Unpooled.wrappedBuffer(body), 0, body.length).writeHeader(dataLength, messageStart,
                streamOffset);
        System.arraycopy(data, 0, body, StreamPayloadFlyweight.HEADER_LENGTH, data.length);
        return data(block, symbol, body, repair);
    }

    /**
     * Parity symbol {@code index} (0..parity-1) of a block whose B segments are all closed: RS8 over the segments'
     * payloads zero-padded to E + 8, as long as the block's longest payload (what NRL sends).
     */
    public byte[] parity(long block, int index, boolean repair) {
        int symbolLength = segmentSize + StreamPayloadFlyweight.HEADER_LENGTH;
        byte[][] src = new byte[blockSize][];
        int[] offsets = new int[blockSize];
        int[] lengths = new int[blockSize];
        int longest = 0;
        for (int i = 0; i < blockSize; i++) {
            src[i] = segments.get((int) (block * blockSize + i));
            lengths[i] = src[i].length;
            longest = Math.max(longest, lengths[i]);
        }
        byte[] symbol = new byte[symbolLength];
        codec.encodeOneParity(blockSize, blockSize, parity, src, offsets, lengths, symbolLength, index, symbol, 0);
        byte[] body = new byte[longest];
        System.arraycopy(symbol, 0, body, 0, longest);
        return data(block, blockSize + index, body, repair);
    }

    /** NORM_CMD(FLUSH) naming (block, symbol) of the stream. */
    public byte[] flushCommand(long block, int symbol) {
        return objectCommand(NormWire.CMD_FLUSH, block, symbol);
    }

    /** NORM_CMD(FLUSH) naming the last segment closed. */
    public byte[] flushCommand() {
        int last = segments.size() - 1;
        return flushCommand(last / blockSize, last % blockSize);
    }

    /** NORM_CMD(SQUELCH) naming the stream at {@code block}: older blocks can no longer be repaired. */
    public byte[] squelch(long block) {
        return objectCommand(NormWire.CMD_SQUELCH, block, 0);
    }

    private byte[] objectCommand(int flavor, long block, int symbol) {
        out.clear();
        out.writeZero(64);
        command.wrap(out, 0, out.capacity());
        command.writeCommandHeader(flavor, 0, source, instance, GRTT_1MS, 4, 0);
        int header = command.writeObjectPosition(NormWire.FEC_RS8, 8, streamId, block, symbol, blockSize);
        command.headerLength(header);
        return ByteBufUtil.getBytes(out, 0, header);
    }
}
