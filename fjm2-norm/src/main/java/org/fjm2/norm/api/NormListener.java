package org.fjm2.norm.api;

import io.netty.buffer.ByteBuf;

/**
 * Events of a session, delivered on its event loop. Implementations must return quickly (hand work to another
 * thread if it is slow): while a callback runs, the session neither sends nor receives.
 */
public interface NormListener {

    /**
     * A complete object from a remote sender. Objects of one sender are delivered in object-id order (an object
     * that can no longer be completed is reported through {@link #onObjectLost} in its place). {@code data} and
     * {@code info} (null when the object had no NORM_INFO) are valid only during the call; retain() to keep.
     */
    default void onObjectReceived(RemoteSenderInfo sender, int objectId, ByteBuf data, ByteBuf info) {
    }

    /** An object of a remote sender that can never be completed, in delivery order. */
    default void onObjectLost(RemoteSenderInfo sender, int objectId, LossReason reason) {
    }

    /**
     * {@code count} consecutive objects of a remote sender, from {@code firstObjectId} on (16-bit ids), that were
     * never heard and can never be completed, in delivery order. By default one {@link #onObjectLost} each; override
     * to take a run at once (a squelch or an overrun can cost thousands of ids).
     */
    default void onObjectsLost(RemoteSenderInfo sender, int firstObjectId, int count, LossReason reason) {
        for (int i = 0; i < count; i++) {
            onObjectLost(sender, (firstObjectId + i) & 0xFFFF, reason);
        }
    }

    // ---- streams (NORM_OBJECT_STREAM) -----------------------------------------------------------------------------

    /**
     * A remote sender's stream object was heard for the first time. Its bytes follow through {@link #onStreamData},
     * from the first segment heard on: a receiver that joins a running stream starts at the sender's current
     * position, as NRL NORM receivers do (they sync to the first block they hear). A receiver follows one stream per
     * sender: a newer stream of the same sender closes the older one ({@link LossReason#UNSUPPORTED}).
     *
     * @param offset the stream offset of the first byte that will be delivered (the sender counts from 0)
     */
    default void onStreamOpened(RemoteSenderInfo sender, int streamId, long offset) {
    }

    /**
     * Bytes of a remote sender's stream, in stream order, each byte once: the payload of one stream segment (up to
     * the sender's segment size). {@code data} is valid only during the call; retain() or copy to keep it. Bytes
     * that can no longer arrive are reported in their place through {@link #onStreamGap}.
     *
     * @param offset       the stream offset of {@code data}'s first readable byte (64 bits: the 32-bit
     *                     payload_offset of the wire, unwrapped)
     * @param messageStart where in {@code data} (from its reader index) the first application message that starts in
     *                     these bytes begins, as the sender marked it (NRL's NormStreamMarkEom: the next write starts
     *                     a message); -1 when none is marked. Only the first message start of each segment is marked,
     *                     so this finds message boundaries to resynchronise on, not every boundary.
     */
    default void onStreamData(RemoteSenderInfo sender, int streamId, long offset, ByteBuf data, int messageStart) {
    }

    /**
     * A remote sender's stream carries a NORM_INFO (NRL's NormStreamOpen with info): delivered once per stream, as
     * soon as it arrives, possibly before {@link #onStreamOpened} (NRL sends it ahead of the data); a receiver that
     * sees the stream's data flagged as having info and no NORM_INFO asks the sender for it. {@code info} is valid
     * only during the call.
     */
    default void onStreamInfo(RemoteSenderInfo sender, int streamId, ByteBuf info) {
    }

    /**
     * {@code bytes} bytes of a stream, from {@code offset}, will never be delivered: the sender no longer holds them
     * (it moved on past its stream buffer, or squelched them), or this receiver fell more than its stream buffer
     * behind. Delivery goes on after them.
     */
    default void onStreamGap(RemoteSenderInfo sender, int streamId, long offset, long bytes) {
    }

    /**
     * A stream is over; nothing more of it is delivered. {@code reason} is null when the sender ended it (its
     * end-of-stream mark arrived, everything before was delivered or reported as a gap), else why this receiver gave
     * it up: the sender went silent or restarted, the session closed, the stream's parameters are more than this
     * receiver takes ({@code streamBufferBytes}), or a newer stream of the same sender replaced it (UNSUPPORTED).
     *
     * @param offset the stream offset after the last byte delivered
     */
    default void onStreamClosed(RemoteSenderInfo sender, int streamId, long offset, LossReason reason) {
    }

    /** First packet from a sender (or from a new instance of a restarted sender). */
    default void onRemoteSenderNew(RemoteSenderInfo sender) {
    }

    /** A sender went silent past the sender timeout (or restarted); its state is freed. */
    default void onRemoteSenderGone(RemoteSenderInfo sender) {
    }

    /** The first transmission of an enqueued object has started; {@code ticket} is what enqueue returned. */
    default void onTxObjectStarted(long ticket, int objectId) {
    }

    /** An object left the repair cache: receivers asking for it from now on are told it is gone. */
    default void onTxObjectPurged(long ticket, int objectId) {
    }

    /** The transmit queue drained: every enqueued object has been sent once and no repair is pending. */
    default void onTransmitIdle() {
    }

    /** A positive-acknowledgement round ended (see {@link org.fjm2.norm.sender.NormSender#requestAcknowledgement}). */
    default void onAcknowledgementComplete(AckResult result) {
    }
}
