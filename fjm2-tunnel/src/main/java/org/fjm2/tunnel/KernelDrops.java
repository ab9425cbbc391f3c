package org.fjm2.tunnel;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import io.netty.channel.Channel;
import io.netty.channel.unix.UnixChannel;

/**
 * Datagrams the kernel dropped at this process's UDP sockets because their receive buffers were full: the daemon
 * did not read fast enough (too little CPU, or a sender faster than the daemon can relay). They never reach the
 * relay's counters, so they are read from the {@code drops} column of {@code /proc/net/udp}, matched by socket
 * inode: the WAN socket's apart, every other UDP socket the process had when the daemon opened (the LAN side's)
 * together. The sockets are found once, at {@link #of}; each {@link #read} reads only {@code /proc/net/udp}. Linux
 * with the epoll transport only; elsewhere the counts are unknown (-1). A full buffer also means queueing delay: at
 * 100 Mbit/s an 8 MiB buffer holds most of a second, which NORM senders take into their round-trip time.
 */
final class KernelDrops {

    private static final Path PROC_NET_UDP = Path.of("/proc/net/udp");
    private static final Path OWN_FDS = Path.of("/proc/self/fd");
    private static final int INODE_COLUMN = 9;
    private static final int DROPS_COLUMN = 12;
    private static final KernelDrops UNKNOWN_SOCKETS = new KernelDrops(null, Set.of());

    /** Drops at the WAN socket and at the others (the LAN side), or -1 each when unknown. */
    record Counts(long wan, long lan) {
        static final Counts UNKNOWN = new Counts(-1, -1);
    }

    private final String wanInode;
    private final Set<String> socketInodes;

    private KernelDrops(String wanInode, Set<String> socketInodes) {
        this.wanInode = wanInode;
        this.socketInodes = socketInodes;
    }

    /** The process's sockets, {@code wan} the WAN one: call once every socket of the daemon is open. */
    static KernelDrops of(Channel wan) {
        if (!(wan instanceof UnixChannel unix) || !wan.isOpen() || !Files.isReadable(PROC_NET_UDP)) {
            return UNKNOWN_SOCKETS;
        }
        String wanInode = inode(OWN_FDS.resolve(String.valueOf(unix.fd().intValue())));
        Set<String> own = new HashSet<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(OWN_FDS)) {
            for (Path fd : fds) {
                String inode = inode(fd);
                if (inode != null) {
                    own.add(inode);
                }
            }
        } catch (IOException | RuntimeException e) {
            return UNKNOWN_SOCKETS;
        }
        return wanInode == null ? UNKNOWN_SOCKETS : new KernelDrops(wanInode, Set.copyOf(own));
    }

    /** The drop counts now. */
    Counts read() {
        if (wanInode == null) {
            return Counts.UNKNOWN;
        }
        try {
            long wanDrops = 0;
            long lanDrops = 0;
            for (String line : Files.readAllLines(PROC_NET_UDP)) {
                String[] f = line.trim().split("\\s+");
                if (f.length > DROPS_COLUMN && socketInodes.contains(f[INODE_COLUMN])) {
                    long drops = Long.parseLong(f[DROPS_COLUMN]);
                    if (f[INODE_COLUMN].equals(wanInode)) {
                        wanDrops += drops;
                    } else {
                        lanDrops += drops;
                    }
                }
            }
            return new Counts(wanDrops, lanDrops);
        } catch (IOException | RuntimeException e) {
            return Counts.UNKNOWN;
        }
    }

    /** The socket inode a file descriptor link names, or null. */
    private static String inode(Path fd) {
        try {
            String target = Files.readSymbolicLink(fd).toString();
            return target.startsWith("socket:[") ? target.substring(8, target.length() - 1) : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
