package org.fjm2.norm.transport;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The kernel's caps on socket buffers. Linux silently clamps SO_RCVBUF / SO_SNDBUF to {@code net.core.rmem_max} /
 * {@code wmem_max} (4 MiB on some distributions, 208 KiB on stock kernels): a receive buffer too small to hold a
 * burst at line rate drops datagrams that NORM must then repair, which lowers an adaptive rate and costs
 * throughput. The clamp is reported once per JVM and limit, with the command that lifts it.
 */
public final class SocketBufferLimits {

    private static final Logger LOG = LoggerFactory.getLogger(SocketBufferLimits.class);
    /** Where Linux keeps the receive buffer cap. */
    public static final Path RMEM_MAX = Path.of("/proc/sys/net/core/rmem_max");
    /** Where Linux keeps the send buffer cap. */
    public static final Path WMEM_MAX = Path.of("/proc/sys/net/core/wmem_max");

    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

    private SocketBufferLimits() {
    }

    /** The cap in bytes, or empty where the kernel does not publish one (not Linux, or not readable). */
    public static OptionalLong cap(Path limit) {
        // Not Files.readString: sysctl files report size 0 and the JDK then reads only their first byte.
        try (BufferedReader reader = Files.newBufferedReader(limit, StandardCharsets.US_ASCII)) {
            String line = reader.readLine();
            return line == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(line.trim()));
        } catch (IOException | NumberFormatException | SecurityException e) {
            return OptionalLong.empty();
        }
    }

    /** Warns (once per JVM, limit and request) when the kernel will give smaller socket buffers than requested. */
    public static void warnIfCapped(int receiveBuffer, int sendBuffer) {
        warnIfCapped(RMEM_MAX, "net.core.rmem_max", "receiveBuffer", receiveBuffer);
        warnIfCapped(WMEM_MAX, "net.core.wmem_max", "sendBuffer", sendBuffer);
    }

    /** @return whether it warned (the first time this limit is found below this request) */
    static boolean warnIfCapped(Path limit, String sysctl, String parameter, int requested) {
        OptionalLong cap = cap(limit);
        if (cap.isPresent() && cap.getAsLong() < requested && WARNED.add(limit + "<" + requested)) {
            LOG.warn("{} asks for {} bytes but the kernel caps socket buffers at {} = {} bytes: bursts beyond that are "
                            + "dropped and repaired, which lowers throughput. As root: sysctl -w {}={}",
                    parameter, requested, sysctl, cap.getAsLong(), sysctl, requested);
            return true;
        }
        return false;
    }
}
