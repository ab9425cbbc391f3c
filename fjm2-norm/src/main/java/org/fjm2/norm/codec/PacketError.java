package org.fjm2.norm.codec;

/** Why a datagram was rejected before any state was touched. Each is counted by the receive loop. */
public enum PacketError {
    /** Shorter than the fixed fields of its type. */
    TRUNCATED,
    /** Protocol version other than 1. */
    BAD_VERSION,
    /** Message type this engine does not handle (NORM_REPORT, undefined types). */
    UNKNOWN_TYPE,
    /** hdr_len shorter than the type's fixed header or longer than the datagram. */
    BAD_HEADER_LENGTH,
    /** A header extension with zero length or running past hdr_len, or a malformed FTI. */
    BAD_EXTENSION,
    /** fec_id other than 2, 5 and 129. */
    UNSUPPORTED_FEC_ID,
    /** NORM_CMD flavor outside 1..7. */
    UNKNOWN_FLAVOR,
    /** Payload not a whole number of list entries, or too short for its content. */
    BAD_PAYLOAD_LENGTH,
    /** Repair requests that do not parse (bad form, bad lengths, wrong fec_id in items). */
    BAD_REPAIR_REQUEST
}
