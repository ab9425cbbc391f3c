package org.fjm2.norm.receiver;

import org.fjm2.norm.codec.HeaderExtensions;
import org.fjm2.norm.codec.ObjectMessageFlyweight;

/**
 * Where a receiver starts with a sender it hears for the first time. By default at the first object it hears (NRL's
 * "sync current"): a receiver that joins a running sender does not ask for what was sent before it came. But a
 * receiver that was already there when the sender started, and lost the sender's first datagrams (a burst at start,
 * a socket full while it was busy), would then silently miss the sender's first objects. A new FJM2 sender announces
 * its first object id and its age on its NORM_DATA in its first seconds (EXT_FJM2_START); a receiver whose session
 * was open before that first object was sent starts there instead, and asks for what it missed like any loss.
 */
final class SenderStart {

    private SenderStart() {
    }

    /**
     * The object to start at: the announced first object when the message carries the announcement, this receiver's
     * session was open when that object was sent ({@code openedNanos} at or before now minus its age), and it lies
     * within {@code windowObjects} before {@code objectId}; otherwise {@code objectId}.
     */
    static int syncPoint(ObjectMessageFlyweight msg, int objectId, long openedNanos, long nowNanos,
                         int windowObjects) {
        int index = HeaderExtensions.findStart(msg.buffer(), msg.extensionsIndex(), msg.offset() + msg.headerLength());
        if (index < 0) {
            return objectId;
        }
        int first = HeaderExtensions.startFirstObjectId(msg.buffer(), index);
        long sentFirstNanos = nowNanos - HeaderExtensions.startAgeMillis(msg.buffer(), index) * 1_000_000L;
        int behind = (objectId - first) & 0xFFFF;
        if (openedNanos - sentFirstNanos > 0 || behind >= Math.min(windowObjects, 0x8000)) {
            return objectId;
        }
        return first;
    }
}
