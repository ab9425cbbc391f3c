package org.fjm2.jms.transport;

import io.netty.buffer.ByteBuf;

/**
 * What an {@link ObjectTransport} receives, reported to its owner on the transport's own receive thread. Events of
 * the sending side go to a {@link TransmitListener}.
 */
public interface ObjectListener {

    /**
     * A complete object from a remote sender, in that sender's transmission order. The buffer is valid only
     * during the call ({@code retain()} to keep it). Never called for this transport's own objects.
     */
    void onObject(int senderNodeId, ByteBuf object);

    /** Objects from this sender that can never be completed (the sender no longer had them, or vanished). */
    void onObjectsLost(int senderNodeId, int objectCount, String reason);

    /** The sender has been silent past the inactivity timeout and its state was dropped. */
    void onSenderGone(int senderNodeId);
}
