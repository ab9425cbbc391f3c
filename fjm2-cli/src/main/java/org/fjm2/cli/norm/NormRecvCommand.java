package org.fjm2.cli.norm;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
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
import org.fjm2.util.Quantities;
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

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "0",
            description = "Exit with an error if --count objects have not arrived after this long (60s, 2min; a bare"
                    + " number is seconds; 0: no limit).")
    String timeout;

    @Option(names = "--max-size", paramLabel = "BYTES", defaultValue = "1g",
            description = "Largest object accepted (64m, 1g); larger ones are reported and skipped. Default:"
                    + " ${DEFAULT-VALUE}.")
    String maxSize;

    @Option(names = "--linger", paramLabel = "DURATION", defaultValue = "1s",
            description = "After the last object, stay this long to answer the sender's acknowledgement request."
                    + " Default: ${DEFAULT-VALUE}.")
    String linger;

    @Option(names = "--progress", paramLabel = "DURATION", defaultValue = "" + DEFAULT_PROGRESS,
            description = "How often a progress line goes to stderr (bytes on the wire, objects written and lost;"
                    + " 0: never). Default: ${DEFAULT-VALUE}.")
    String progress;

    @Option(names = "--quiet", description = "Print only the summary (no progress, no line per object).")
    boolean quiet;

    /** Progress interval: long transfers show they are alive, short ones print no progress at all. */
    static final String DEFAULT_PROGRESS = "2s";

    /** Largest --max-size: one object is one buffer. */
    static final long MAX_OBJECT_SIZE = Integer.MAX_VALUE - 64;

    /** Longest wait for the next object between checks of the deadline and the progress line. */
    private static final long POLL_NANOS = TimeUnit.SECONDS.toNanos(1);

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
        long maxBytes = Quantities.bytes("--max-size", maxSize);
        if (maxBytes < 1 || maxBytes > MAX_OBJECT_SIZE) {
            throw new IllegalArgumentException("--max-size: must be 1.." + MAX_OBJECT_SIZE + " bytes, got '" + maxSize
                    + "'");
        }
        Duration lingerTime = Quantities.duration("--linger", linger);
        Duration progressInterval = Quantities.duration("--progress", progress);
        long deadline = SessionOptions.deadline("--timeout", timeout);
        Files.createDirectories(out);
        if (!Files.isWritable(out)) {
            throw new IllegalArgumentException("--out: directory is not writable: " + out);
        }
        NormConfig config = session.builder().maxObjectSize((int) maxBytes)
                .receiveBufferBytes(Math.max(NormConfig.DEFAULT_RECEIVE_BUFFER_BYTES, maxBytes))
                .txCacheBytes(Math.max(NormConfig.DEFAULT_TX_CACHE_BYTES, maxBytes)).build();
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
        int written = 0;
        int lost = 0;
        long bytes = 0;
        long start = System.nanoTime();
        try (NormSession norm = NormSession.open(config, listener, java.util.concurrent.ThreadLocalRandom.current().nextLong(),
                session.transports(false))) {
            if (!quiet) {
                stderr.printf("listening on %s (node %s)%n", session.group, Integer.toUnsignedString(norm.nodeId()));
            }
            ReceiveProgress shown = new ReceiveProgress(stderr, quiet ? Duration.ZERO : progressInterval,
                    norm.counters(), start);
            while (count == 0 || written < count) {
                long now = System.nanoTime();
                shown.maybePrint(now, written, bytes, lost);
                long wait = deadline == Long.MAX_VALUE ? POLL_NANOS : deadline - now;
                if (wait <= 0) {
                    stderr.printf("fjm2 norm recv: timed out after %.1f s with %d of %d objects (%d lost)%n",
                            (now - start) / 1e9, written, count, lost);
                    return 1;
                }
                Event e = events.poll(Math.min(wait, shown.nanosUntilDue(now, POLL_NANOS)), TimeUnit.NANOSECONDS);
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
            if (!lingerTime.isZero()) {
                Thread.sleep(lingerTime.toMillis());
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
