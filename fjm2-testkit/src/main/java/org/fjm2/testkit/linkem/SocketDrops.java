package org.fjm2.testkit.linkem;

import io.netty.channel.Channel;
import io.netty.channel.unix.UnixChannel;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads how many datagrams the kernel dropped at the emulator's own UDP sockets because their receive buffers
 * were full (the emulator was too slow or not scheduled): the {@code drops} column of {@code /proc/net/udp},
 * matched by socket inode. Such datagrams never reach the emulator's counters, so this is how they are not
 * lost in silence. Linux with the epoll transport only; elsewhere the count is unknown (-1).
 */
final class SocketDrops {

    private static final Path PROC_NET_UDP = Path.of("/proc/net/udp");
    private static final int INODE_COLUMN = 9;
    private static final int DROPS_COLUMN = 12;

    private SocketDrops() {
    }

    /** Total kernel drops of the given open channels, or -1 when they cannot be read here. */
    static long of(List<Channel> channels) {
        if (!NettyTransport.EPOLL || !Files.isReadable(PROC_NET_UDP)) {
            return -1;
        }
        Set<String> inodes = new HashSet<>();
        for (Channel c : channels) {
            if (c instanceof UnixChannel unix && c.isOpen()) {
                try {
                    String target = Files.readSymbolicLink(Path.of("/proc/self/fd/" + unix.fd().intValue())).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring(8, target.length() - 1));
                    }
                } catch (IOException | RuntimeException e) {
                    return -1;
                }
            }
        }
        try {
            long drops = 0;
            for (String line : Files.readAllLines(PROC_NET_UDP)) {
                String[] f = line.trim().split("\\s+");
                if (f.length > DROPS_COLUMN && inodes.contains(f[INODE_COLUMN])) {
                    drops += Long.parseLong(f[DROPS_COLUMN]);
                }
            }
            return drops;
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }
}
