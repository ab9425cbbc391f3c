package org.fjm2.cli.norm;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.NormSession;
import org.fjm2.norm.api.LossReason;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormListener;
import org.fjm2.norm.api.RemoteSenderInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code fjm2 norm recv}: receives NORM data objects and writes each complete one as a file, named by its NORM_INFO
 * (sanitised to a plain file name) or, without info, by sender and transport id.
 */
@Command(name = "recv", mixinStandardHelpOptions = true,
        description = {"Receive NORM data objects from a multicast group and write each as a file.",
                "Files are named by the object's NORM_INFO when present, else object-<sender>-<id>.bin."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:received --count objects", "1:failure, or timeout before --count objects",
                "2:bad arguments"})
public final class NormRecvCommand implements Callable<Integer> {

    @Mixin
    SessionOptions session;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Directory to write objects into.")
    Path out;

    @Option(names = "--count", paramLabel = "N", defaultValue = "0",
            description = "Exit after N objects (0: run until interrupted). Default: ${DEFAULT-VALUE}.")
    int count;

    @Option(names = "--timeout", paramLabel = "SEC", defaultValue = "0",
            description = "Exit with an error if --count objects have not arrived after SEC seconds (0: no limit).")
    double timeoutSeconds;

    @Option(names = "--max-size", paramLabel = "BYTES", defaultValue = "1073741824",
            description = "Largest object accepted; larger ones are reported and skipped. Default: ${DEFAULT-VALUE}.")
    int maxSize;

    @Option(names = "--linger", paramLabel = "SEC", defaultValue = "1",
            description = "After the last object, stay this long to answer the sender's acknowledgement request."
                    + " Default: ${DEFAULT-VALUE}.")
    double lingerSeconds;

    @Option(names = "--quiet", description = "Print only the summary.")
    boolean quiet;

    PrintStream stdout = System.out;
    PrintStream stderr = System.err;

    /** A completed or lost object handed from the event loop to the writer (this thread). */
    private record Event(int sender, int objectId, ByteBuf data, String name, LossReason lost) {
    }

    @Override
    public Integer call() throws Exception {
        if (count < 0) {
            throw new IllegalArgumentException("--count: must be >= 0");
        }
        if (maxSize < 1) {
            throw new IllegalArgumentException("--max-size: must be positive");
        }
        Files.createDirectories(out);
        if (!Files.isWritable(out)) {
            throw new IllegalArgumentException("--out: directory is not writable: " + out);
        }
        NormConfig config = session.builder().maxObjectSize(maxSize)
                .receiveBufferBytes(Math.max(NormConfig.DEFAULT_RECEIVE_BUFFER_BYTES, maxSize))
                .txCacheBytes(Math.max(NormConfig.DEFAULT_TX_CACHE_BYTES, maxSize)).build();
        BlockingQueue<Event> events = new LinkedBlockingQueue<>();
        NormListener listener = new NormListener() {
            @Override
            public void onObjectReceived(RemoteSenderInfo sender, int objectId, ByteBuf data, ByteBuf info) {
                String name = info == null ? null : info.toString(info.readerIndex(), info.readableBytes(),
                        StandardCharsets.UTF_8);
                events.add(new Event(sender.nodeId(), objectId, data.retainedDuplicate(), name, null));
            }

            @Override
            public void onObjectLost(RemoteSenderInfo sender, int objectId, LossReason reason) {
                events.add(new Event(sender.nodeId(), objectId, null, null, reason));
            }
        };
        long deadline = timeoutSeconds > 0 ? System.nanoTime() + (long) (timeoutSeconds * 1e9) : Long.MAX_VALUE;
        int written = 0;
        int lost = 0;
        long bytes = 0;
        long start = System.nanoTime();
        try (NormSession norm = NormSession.open(config, listener, java.util.concurrent.ThreadLocalRandom.current().nextLong(),
                session.transports(false))) {
            if (!quiet) {
                stderr.printf("listening on %s (node %s)%n", session.group, Integer.toUnsignedString(norm.nodeId()));
            }
            while (count == 0 || written < count) {
                long wait = deadline == Long.MAX_VALUE ? TimeUnit.SECONDS.toNanos(1) : deadline - System.nanoTime();
                if (wait <= 0) {
                    stderr.printf("fjm2 norm recv: timed out after %.1f s with %d of %d objects (%d lost)%n",
                            timeoutSeconds, written, count, lost);
                    return 1;
                }
                Event e = events.poll(Math.min(wait, TimeUnit.SECONDS.toNanos(1)), TimeUnit.NANOSECONDS);
                if (e == null) {
                    continue;
                }
                if (e.lost != null) {
                    lost++;
                    stderr.printf("LOST object %d from node %s: %s%n", e.objectId,
                            Integer.toUnsignedString(e.sender), e.lost.description());
                    continue;
                }
                try {
                    Path file = write(e);
                    written++;
                    bytes += e.data.readableBytes();
                    if (!quiet) {
                        stdout.printf("received %s (%d bytes, object %d from node %s)%n", file,
                                e.data.readableBytes(), e.objectId, Integer.toUnsignedString(e.sender));
                    }
                } finally {
                    e.data.release();
                }
            }
            if (lingerSeconds > 0) {
                Thread.sleep((long) (lingerSeconds * 1000));
            }
        }
        double seconds = Math.max(1e-3, (System.nanoTime() - start) / 1e9);
        stderr.printf("received %d objects, %d bytes in %.2f s; %d lost%n", written, bytes, seconds, lost);
        return 0;
    }

    private Path write(Event e) throws IOException {
        String name = safeName(e.name);
        if (name == null) {
            name = "object-" + Integer.toUnsignedString(e.sender) + "-" + e.objectId + ".bin";
        }
        Path file = out.resolve(name);
        try (OutputStream os = Files.newOutputStream(file, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            e.data.getBytes(e.data.readerIndex(), os, e.data.readableBytes());
        }
        return file;
    }

    /**
     * A file name from the network, reduced to its last path component with control characters removed; null when
     * nothing usable is left ("", ".", "..").
     */
    static String safeName(String name) {
        if (name == null) {
            return null;
        }
        String base = name;
        int slash = Math.max(base.lastIndexOf('/'), base.lastIndexOf('\\'));
        if (slash >= 0) {
            base = base.substring(slash + 1);
        }
        StringBuilder clean = new StringBuilder();
        for (int i = 0; i < base.length(); i++) {
            char c = base.charAt(i);
            if (c >= 0x20 && c != 0x7F) {
                clean.append(c);
            }
        }
        String s = clean.toString().trim();
        if (s.isEmpty() || s.equals(".") || s.equals("..") || s.length() > 255) {
            return null;
        }
        return s;
    }
}
