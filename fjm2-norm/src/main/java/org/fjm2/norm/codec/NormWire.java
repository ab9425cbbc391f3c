package org.fjm2.norm.codec;

/**
 * Numbers of the NORM wire format (RFC 5740): message types, flags, command flavors, repair request forms and
 * flags, acknowledgement types, header extension types and the FEC encoding ids this engine speaks.
 */
public final class NormWire {

    /** The only protocol version on the wire. */
    public static final int VERSION = 1;

    public static final int TYPE_INFO = 1;
    public static final int TYPE_DATA = 2;
    public static final int TYPE_CMD = 3;
    public static final int TYPE_NACK = 4;
    public static final int TYPE_ACK = 5;
    public static final int TYPE_REPORT = 6;

    /** NORM_DATA / NORM_INFO flags. */
    public static final int FLAG_REPAIR = 0x01;
    public static final int FLAG_EXPLICIT = 0x02;
    public static final int FLAG_INFO = 0x04;
    public static final int FLAG_UNRELIABLE = 0x08;
    public static final int FLAG_FILE = 0x10;
    public static final int FLAG_STREAM = 0x20;
    /** Was NORM_FLAG_MSG_START in RFC 3940; NRL NORM reuses the bit as a stream SYN. */
    public static final int FLAG_SYN = 0x40;

    /** NORM_CMD flavors. */
    public static final int CMD_FLUSH = 1;
    public static final int CMD_EOT = 2;
    public static final int CMD_SQUELCH = 3;
    public static final int CMD_CC = 4;
    public static final int CMD_REPAIR_ADV = 5;
    public static final int CMD_ACK_REQ = 6;
    public static final int CMD_APPLICATION = 7;

    /** NORM_CMD(CC) flag (in its reserved byte): the sender (re)started and receivers should resynchronise. */
    public static final int CC_CMD_FLAG_SYN = 0x01;

    /** cc_flags of CC node list entries and of EXT_CC_FEEDBACK. */
    public static final int CC_FLAG_CLR = 0x01;
    public static final int CC_FLAG_PLR = 0x02;
    public static final int CC_FLAG_RTT = 0x04;
    public static final int CC_FLAG_START = 0x08;
    public static final int CC_FLAG_LEAVE = 0x10;

    /** Repair request forms. */
    public static final int FORM_ITEMS = 1;
    public static final int FORM_RANGES = 2;
    public static final int FORM_ERASURES = 3;

    /** Repair request flags. */
    public static final int REPAIR_SEGMENT = 0x01;
    public static final int REPAIR_BLOCK = 0x02;
    public static final int REPAIR_INFO = 0x04;
    public static final int REPAIR_OBJECT = 0x08;

    /** NORM_ACK and NORM_CMD(ACK_REQ) types; 16..255 are application defined. */
    public static final int ACK_CC = 1;
    public static final int ACK_FLUSH = 2;
    public static final int ACK_APPLICATION_BASE = 16;
    /**
     * FJM2's own application-defined acknowledgement: a receiver leaving the session tells each sender it gave
     * feedback to, so that flow control stops waiting for it at once (instead of after the receiver timeout). Other
     * NORM implementations ignore it.
     */
    public static final int ACK_FJM2_LEAVE = 0xF1;
    /**
     * FJM2's "alive" acknowledgement: a receiver a watermark round lists that cannot acknowledge the watermark yet
     * (data missing, or its application backed up) says it is alive, so the sender keeps waiting for it rather than
     * taking it for dead; it also tells the sender that this receiver answers every round (NRL NORM receivers stay
     * silent until they can acknowledge).
     */
    public static final int ACK_FJM2_ALIVE = 0xF2;
    /**
     * FJM2's receive-window report (receiver-paced flow control): how far the receiver has read the sender's
     * messages off its socket, how many more its socket buffer holds, and up to which object it has everything. Sent
     * only to senders that offer flow control (EXT_FJM2_FLOW in their probes), unicast; see {@link FlowReport}.
     */
    public static final int ACK_FJM2_FLOW = 0xF3;

    /** Header extension types. Types of 128 and above have a fixed length of one 32-bit word. */
    public static final int EXT_FTI = 64;
    public static final int EXT_CC_FEEDBACK = 3;
    public static final int EXT_CC_RATE = 128;
    /**
     * FJM2's flow-control offer, in NORM_CMD(CC) probes: receivers that understand it report their receive window
     * (NORM_ACK {@link #ACK_FJM2_FLOW}); other NORM implementations skip it like any unknown extension.
     */
    public static final int EXT_FJM2_FLOW = 0xF0;
    /**
     * FJM2's start announcement, on a sender's NORM_DATA in its first seconds: its first object id and how long ago
     * it sent it, so that a receiver that was there before the sender started but missed its first objects syncs to
     * the first one instead of the first one it heard. Other NORM implementations skip it like any unknown extension.
     */
    public static final int EXT_FJM2_START = 112;

    /** FEC encoding ids: Reed-Solomon GF(2^m) (RFC 5510), RS8 (RFC 5510), small block systematic (RFC 5445). */
    public static final int FEC_RS = 2;
    public static final int FEC_RS8 = 5;
    public static final int FEC_SMALL_BLOCK = 129;

    /** The source_id no node may have. */
    public static final int NODE_NONE = 0x00000000;
    /** The source_id meaning "any node". */
    public static final int NODE_ANY = 0xFFFFFFFF;

    private NormWire() {
    }

    /** Whether this engine can decode FEC payload ids of this fec_id. */
    public static boolean isSupportedFecId(int fecId) {
        return fecId == FEC_RS8 || fecId == FEC_RS || fecId == FEC_SMALL_BLOCK;
    }

    /** Length in bytes of the fec_payload_id field for the fec_id, or -1 when the fec_id is not supported. */
    public static int fecPayloadIdLength(int fecId) {
        switch (fecId) {
            case FEC_RS8:
            case FEC_RS:
                return 4;
            case FEC_SMALL_BLOCK:
                return 8;
            default:
                return -1;
        }
    }

    /** Human-readable message type, for logs. */
    public static String typeName(int type) {
        switch (type) {
            case TYPE_INFO: return "NORM_INFO";
            case TYPE_DATA: return "NORM_DATA";
            case TYPE_CMD: return "NORM_CMD";
            case TYPE_NACK: return "NORM_NACK";
            case TYPE_ACK: return "NORM_ACK";
            case TYPE_REPORT: return "NORM_REPORT";
            default: return "type " + type;
        }
    }
}
