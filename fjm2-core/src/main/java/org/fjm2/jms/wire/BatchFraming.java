package org.fjm2.jms.wire;

import io.netty.buffer.ByteBuf;

/**
 * Checks an object's batch framing before anything reads its records: the header (magic, version), a non-negative
 * record count, and records whose lengths tile the object exactly. Shared by every reader of batches (a connection's
 * receive path, the store), so that all of them refuse the same inputs.
 */
public final class BatchFraming {

    private BatchFraming() {
    }

    /**
     * Wraps {@code header} over the batch between the buffer's reader and writer index and checks it.
     *
     * @return the offset of the first record
     * @throws MalformedWireException naming what is wrong
     */
    public static int check(ByteBuf buf, BatchHeaderFlyweight header) throws MalformedWireException {
        int start = buf.readerIndex();
        int end = buf.writerIndex();
        if (end - start < BatchHeaderFlyweight.LENGTH) {
            throw new MalformedWireException("object of " + (end - start) + " bytes is shorter than a batch header");
        }
        header.wrap(buf, start);
        if (header.magic() != BatchHeaderFlyweight.MAGIC) {
            throw new MalformedWireException("not an FJM2-JMS batch (magic " + Integer.toHexString(header.magic())
                    + ")");
        }
        if (header.version() != BatchHeaderFlyweight.VERSION) {
            throw new MalformedWireException("unsupported FJM2-JMS wire version " + header.version());
        }
        int count = header.recordCount();
        int first = start + BatchHeaderFlyweight.LENGTH;
        if (count < 0) {
            throw new MalformedWireException("negative record count " + count);
        }
        int pos = first;
        for (int i = 0; i < count; i++) {
            if (end - pos < 4) {
                throw new MalformedWireException("record " + i + " of " + count + " starts past the end");
            }
            int length = buf.getInt(pos);
            if (length < MessageHeaderFlyweight.FIXED_LENGTH || length > end - pos) {
                throw new MalformedWireException("record " + i + " has bad length " + length);
            }
            pos += length;
        }
        if (pos != end) {
            throw new MalformedWireException((end - pos) + " bytes after the last record");
        }
        return first;
    }
}
