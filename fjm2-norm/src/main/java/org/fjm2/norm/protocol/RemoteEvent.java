package org.fjm2.norm.protocol;

/** Kinds of log lines that other nodes' datagrams cause, each limited to one a second per session. */
public enum RemoteEvent {
    SENDER_GONE, SENDER_RESTARTED, SENDER_EVICTED, SQUELCHED, DECODE_FAILED, RECEIVER_DROPPED, RECEIVER_EVICTED,
    RECEIVER_SUSPENDED,
    OBJECT_EVICTED
}
