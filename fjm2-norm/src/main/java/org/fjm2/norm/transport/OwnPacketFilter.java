package org.fjm2.norm.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.unix.RawUnixChannelOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteOrder;

/**
 * A classic BPF socket filter that makes the kernel drop, on the group socket, the datagrams this node sent itself.
 * With multicast loopback on (so that subscribers on the same host hear the group), every datagram a sender
 * transmits is also copied into its own receive socket, read and then ignored: at a gigabyte per second that is a
 * sixth of the sender loop's CPU. The filter compares the NORM header's source_id with this node's id, which is
 * exactly the test the session applies in Java, so the only difference is where the packet is discarded.
 *
 * <p>Linux only (SO_ATTACH_FILTER through Netty's raw socket option, x86-64 and AArch64 numbering); where it cannot
 * be attached the session keeps discarding its own packets itself.
 */
public final class OwnPacketFilter {

    private static final Logger LOG = LoggerFactory.getLogger(OwnPacketFilter.class);

    /** SOL_SOCKET and SO_ATTACH_FILTER on x86-64 and AArch64 Linux. */
    private static final int SOL_SOCKET = 1;
    private static final int SO_ATTACH_FILTER = 26;
    /** struct sock_fprog on 64-bit Linux: unsigned short len, 6 bytes padding, struct sock_filter *filter. */
    private static final int SOCK_FPROG_LENGTH = 16;
    private static final RawUnixChannelOption ATTACH_FILTER =
            new RawUnixChannelOption("FJM2_SO_ATTACH_FILTER", SOL_SOCKET, SO_ATTACH_FILTER, SOCK_FPROG_LENGTH);

    /** Classic BPF opcodes: BPF_LD|BPF_W|BPF_ABS, BPF_JMP|BPF_JEQ|BPF_K, BPF_RET|BPF_K. */
    private static final short LOAD_WORD_ABSOLUTE = 0x20;
    private static final short JUMP_IF_EQUAL = 0x15;
    private static final short RETURN = 0x06;
    /** struct sock_filter: u16 code, u8 jt, u8 jf, u32 k. */
    private static final int INSTRUCTION_LENGTH = 8;
    /**
     * Offset of the NORM source_id from the start of the UDP header, where a UDP socket's filter starts reading: the
     * 8-byte UDP header, then version/type, header length and sequence (4 bytes) of the NORM common header.
     */
    static final int SOURCE_ID_OFFSET = 8 + 4;
    /** Accept: keep the whole datagram. */
    private static final int KEEP = 0xFFFF_FFFF;
    private static final int DROP = 0;

    private OwnPacketFilter() {
    }

    /** Whether this platform's socket option numbering and byte order are the ones encoded here. */
    public static boolean supported() {
        String os = System.getProperty("os.name", "");
        String arch = System.getProperty("os.arch", "");
        return os.startsWith("Linux") && ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN
                && (arch.equals("amd64") || arch.equals("x86_64") || arch.equals("aarch64"));
    }

    /**
     * Attaches the filter to an epoll datagram channel; returns whether it is in place (a failure is logged and
     * leaves the socket unfiltered).
     */
    public static boolean attach(Channel channel, int nodeId) {
        if (!supported()) {
            return false;
        }
        // The kernel reads both structures in native (little-endian) order.
        ByteBuf program = Unpooled.directBuffer(4 * INSTRUCTION_LENGTH);
        ByteBuf fprog = Unpooled.directBuffer(SOCK_FPROG_LENGTH);
        try {
            if (!program.hasMemoryAddress()) {
                return false;
            }
            instruction(program, LOAD_WORD_ABSOLUTE, 0, 0, SOURCE_ID_OFFSET);
            instruction(program, JUMP_IF_EQUAL, 0, 1, nodeId);
            instruction(program, RETURN, 0, 0, DROP);
            instruction(program, RETURN, 0, 0, KEEP);
            fprog.writeShortLE(program.readableBytes() / INSTRUCTION_LENGTH).writeZero(6)
                    .writeLongLE(program.memoryAddress());
            // The kernel copies the program during the call: both buffers can go right after.
            channel.config().setOption(ATTACH_FILTER, fprog.nioBuffer());
            return true;
        } catch (RuntimeException e) {
            LOG.debug("own-packet socket filter not attached: {}", e.toString());
            return false;
        } finally {
            program.release();
            fprog.release();
        }
    }

    /** One struct sock_filter. A BPF_ABS load of a datagram shorter than the offset drops it (no valid NORM). */
    private static void instruction(ByteBuf program, short code, int jumpIfTrue, int jumpIfFalse, int k) {
        program.writeShortLE(code).writeByte(jumpIfTrue).writeByte(jumpIfFalse).writeIntLE(k);
    }
}
