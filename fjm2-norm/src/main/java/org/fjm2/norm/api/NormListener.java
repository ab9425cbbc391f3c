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
