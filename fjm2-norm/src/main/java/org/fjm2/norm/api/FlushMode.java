package org.fjm2.norm.api;

/**
 * What a stream flush does (NRL NORM's NormFlushMode): how soon bytes written to a stream leave, and whether
 * receivers are prompted to ask for what they miss.
 */
public enum FlushMode {
    /** Nothing: bytes wait until a segment is full. */
    NONE,
    /** A partly filled segment is sent as it is, now (low latency; the segment carries fewer bytes). */
    PASSIVE,
    /**
     * As PASSIVE, and NORM_CMD(FLUSH)es naming the last segment follow (robust factor times while nothing else is
     * sent), so that receivers that lost the tail ask for it at once.
     */
    ACTIVE
}
