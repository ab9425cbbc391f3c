package org.fjm2.cli.norm;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.fjm2.norm.NormSession;
import org.fjm2.norm.NormStream;
import org.fjm2.norm.api.AckResult;
import org.fjm2.norm.api.FlushMode;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormListener;
import org.fjm2.util.Quantities;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code fjm2 norm send}: sends files as NORM data objects, each with its file name in NORM_INFO, then flushes so
 * receivers can repair; with {@code --ack}, waits until the listed receivers acknowledge everything. With
 * {@code --stream}, sends stdin as a stream (NORM_OBJECT_STREAM) until its end.
 */
@Command(name = "send", mixinStandardHelpOptions = true,
        description = {"Send files as NORM data objects (file name in NORM_INFO) to a multicast group.",
                "Exits after the final FLUSH round, or with --ack once the listed receivers acknowledged.",
                "With --stream, send stdin as a NORM stream instead (received by fjm2 norm recv --stream or NRL's"
                        + " NormStreamRead): bytes go out as they are read (see --flush), stdin's end ends the"
                        + " stream; the command exits once the end went out and --linger passed."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every file sent (and acknowledged, with --ack); --stream: stdin sent and the stream ended",
                "1:failure", "2:bad arguments", "3:some receivers did not acknowledge"})
public final class NormSendCommand implements Callable<Integer> {

    @Mixin
    SessionOptions session;

    @Option(names = "--rate", paramLabel = "BPS", defaultValue = "100m",
            description = "Transmit rate in bit/s (k, m, g suffixes); with --cc the ceiling. Default: ${DEFAULT-VALUE}.")
    String rate;

    @Option(names = "--cc", description = "NORM-CC congestion control (RFC 5740 section 5.5, as NRL NORM's): start "
            + "at 1 Mbit/s, find the path's TCP-friendly rate from the receivers' feedback, never above --rate nor "
            + "below 100 kbit/s.")
    boolean congestionControl;

    @Option(names = "--ack", paramLabel = "NODE_ID", split = ",",
            description = "Ask these receivers to acknowledge (watermark) and report per file.")
    List<Long> ackNodes = new ArrayList<>();

    /**
     * Objects kept for repair at once, default 256: an NRL NORM receiver tracks at most 256 objects from its oldest
     * incomplete one (NormSetRxCacheLimit) and abandons all of them when a later object id arrives, so a sender
     * must not run further ahead than that (docs/nrl-interop.md). NRL's own senders keep 256 too.
     */
    static final int DEFAULT_CACHE_OBJECTS = 256;

    @Option(names = "--cache-objects", paramLabel = "N", defaultValue = "" + DEFAULT_CACHE_OBJECTS,
            description = {"Objects kept for repair at once; receivers of other NORM implementations may track no more"
                    + " (NRL NORM: 256). Default: ${DEFAULT-VALUE}."})
    int cacheObjects;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "0",
            description = "Give up after this long (60s, 2min; a bare number is seconds; 0: no limit). Default:"
                    + " ${DEFAULT-VALUE}.")
    String timeout;

    @Option(names = "--quiet", description = "No progress lines on stderr.")
    boolean quiet;

    @Parameters(paramLabel = "FILE", arity = "0..*", description = {"Files to send, in order (none with --stream);"
            + " a directory sends its regular files in name order (not its subdirectories)."})
    List<Path> files = new ArrayList<>();

    @Option(names = "--stream", description = "Send stdin as a stream instead of files as objects.")
    boolean stream;

    @Option(names = "--stream-buffer", paramLabel = "BYTES", defaultValue = "8m",
            description = {"--stream: the stream buffer, what can still be repaired; writing waits while it is full"
                    + " (a block is reused once it was sent and left alone for the hold time, 0.5 s), so the stream"
                    + " moves at most about this much per half second. Default: ${DEFAULT-VALUE}."})
    String streamBuffer;

    @Option(names = "--flush", paramLabel = "MODE", defaultValue = "passive",
            description = {"--stream: after each read from stdin, none (segments leave when full), passive (a partly"
                    + " filled segment leaves at once) or active (and FLUSH commands prompt receivers to ask for what"
                    + " they miss). Default: ${DEFAULT-VALUE}."})
    String flush;

    @Option(names = "--message-per-line",
            description = "--stream: every line starts a message (receivers resynchronise on line starts with fjm2"
                    + " norm recv --stream --from-message-start).")
    boolean messagePerLine;

    @Option(names = "--info", paramLabel = "TEXT",
            description = {"--stream: the stream's NORM_INFO (e.g. a name or content type; UTF-8, at most a"
                    + " segment), sent before its data and again to receivers that missed it (fjm2 norm recv --stream"
                    + " logs it; NRL receivers report NORM_RX_OBJECT_INFO). Default: none."})
    String info;

    @Option(names = "--linger", paramLabel = "DURATION", defaultValue = "2s",
            description = "--stream: after the end of the stream went out, keep serving repairs this long. Default:"
                    + " ${DEFAULT-VALUE}.")
    String linger;

    java.io.InputStream in = System.in;

    PrintStream out = System.out;
    PrintStream err = System.err;

    @Override
    public Integer call() throws Exception {
        long rateBps = SessionOptions.parseRate(rate);
        if (stream) {
            if (!files.isEmpty()) {
                throw new IllegalArgumentException("FILE: not with --stream (the stream is read from stdin)");
            }
            return sendStream(rateBps);
        }
        if (info != null) {
            throw new IllegalArgumentException("--info: only with --stream (a file's info is its name)");
        }
        files = expandDirectories(files);
        if (files.isEmpty()) {
            throw new IllegalArgumentException("FILE: at least one file (or --stream)");
        }
        if (cacheObjects < 1 || cacheObjects > 16384) {
            throw new IllegalArgumentException("--cache-objects: must be 1..16384, got " + cacheObjects);
        }
        long largest = 1;
        long total = 0;
        for (Path file : files) {
            long size = regularFileSize(file);
            if (size == 0) {
                throw new IllegalArgumentException("FILE: " + file + " is empty (a NORM data object has at least one byte)");
            }
            if (size > Integer.MAX_VALUE - 64) {
                throw new IllegalArgumentException("FILE: " + file + " is larger than 2 GiB");
            }
            largest = Math.max(largest, size);
            total += size;
        }
        NormConfig.Builder builder = rateControl(session.builder().txRate(rateBps)).maxObjectSize((int) largest)
                .txCacheObjects(cacheObjects)
                .txCacheBytes(Math.max(NormConfig.DEFAULT_TX_CACHE_BYTES, largest))
                .receiveBufferBytes(Math.max(NormConfig.DEFAULT_RECEIVE_BUFFER_BYTES, largest));
        NormConfig config = builder.build();
        long deadline = SessionOptions.deadline("--timeout", timeout);
        CompletableFuture<AckResult> ackResult = new CompletableFuture<>();
        Map<Long, Integer> objectIds = new ConcurrentHashMap<>();
        NormListener listener = new NormListener() {
            @Override
            public void onTxObjectStarted(long ticket, int objectId) {
                objectIds.put(ticket, objectId);
            }

            @Override
            public void onAcknowledgementComplete(AckResult result) {
                ackResult.complete(result);
            }
        };
        Progress progress = new Progress(err, quiet, total);
        try (NormSession norm = NormSession.open(config, listener, java.util.concurrent.ThreadLocalRandom.current().nextLong(),
                session.transports(true))) {
            long[] tickets = new long[files.size()];
            for (int i = 0; i < files.size(); i++) {
                Path file = files.get(i);
                byte[] content = Files.readAllBytes(file);
                String name = file.getFileName().toString();
                ByteBuf info = Unpooled.copiedBuffer(name, StandardCharsets.UTF_8);
                if (info.readableBytes() > config.segmentSize()) {
                    info.release();
                    throw new IllegalArgumentException("FILE: name of " + file + " does not fit in one segment");
                }
                long ticket = norm.enqueue(Unpooled.wrappedBuffer(content), info, 4,
                        remaining(deadline), TimeUnit.NANOSECONDS);
                if (ticket < 0) {
                    err.println("fjm2 norm send: timed out while queueing " + file);
                    return 1;
                }
                tickets[i] = ticket;
                progress.add(content.length, name);
            }
            if (ackNodes.isEmpty()) {
                boolean flushed = norm.awaitFlushed(Duration.ofNanos(remaining(deadline)));
                progress.done();
                for (int i = 0; i < files.size(); i++) {
                    out.printf("sent %s as object %d%n", files.get(i), objectIds.getOrDefault(tickets[i], -1));
                }
                if (!flushed) {
                    err.println("fjm2 norm send: timed out before the final flush");
                    return 1;
                }
                return 0;
            }
            int[] nodes = ackNodes.stream().mapToInt(Long::intValue).toArray();
            norm.requestAcknowledgement(nodes);
            AckResult result;
            try {
                result = ackResult.get(remaining(deadline), TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                err.println("fjm2 norm send: timed out waiting for acknowledgements");
                return 1;
            }
            progress.done();
            boolean all = result.complete();
            for (int i = 0; i < files.size(); i++) {
                StringBuilder missing = new StringBuilder();
                for (Map.Entry<Integer, Boolean> e : result.acknowledged().entrySet()) {
                    if (!e.getValue()) {
                        missing.append(missing.length() == 0 ? "" : ",").append(Integer.toUnsignedString(e.getKey()));
                    }
                }
                out.printf("sent %s as object %d: %s%n", files.get(i), objectIds.getOrDefault(tickets[i], -1),
                        all ? "acknowledged by all" : "NOT acknowledged by " + missing);
            }
            return all ? 0 : 3;
        }
    }

    /** {@code --stream}: stdin as one stream, until its end. */
    /** NORM-CC when asked for, else the fixed rate. */
    private NormConfig.Builder rateControl(NormConfig.Builder builder) {
        return congestionControl ? builder.rateControl(NormConfig.RateControl.CC) : builder;
    }

    private int sendStream(long rateBps) throws Exception {
        long bufferBytes = Quantities.bytes("--stream-buffer", streamBuffer);
        if (bufferBytes < 1 || bufferBytes > (1L << 30)) {
            throw new IllegalArgumentException("--stream-buffer: must be 1..1g, got '" + streamBuffer + "'");
        }
        FlushMode mode;
        try {
            mode = FlushMode.valueOf(flush.toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--flush: none, passive or active, got '" + flush + "'");
        }
        Duration lingerTime = Quantities.duration("--linger", linger);
        long deadline = SessionOptions.deadline("--timeout", timeout);
        NormConfig config = rateControl(session.builder().txRate(rateBps)).build();
        long start = System.nanoTime();
        long sent = 0;
        try (NormSession norm = NormSession.open(config, null, java.util.concurrent.ThreadLocalRandom.current()
                .nextLong(), session.transports(true))) {
            byte[] infoBytes = info == null ? null : info.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            if (infoBytes != null && infoBytes.length > config.segmentSize()) {
                throw new IllegalArgumentException("--info: " + infoBytes.length + " bytes, more than a segment ("
                        + config.segmentSize() + " bytes, --segment)");
            }
            NormStream out = norm.openStream(bufferBytes, infoBytes);
            out.setAutoFlush(mode);
            if (!quiet) {
                err.printf("streaming stdin to %s (node %s, stream %d, buffer %d bytes)%n", session.group,
                        Integer.toUnsignedString(norm.nodeId()), out.streamId(), out.bufferBytes());
            }
            byte[] buffer = new byte[64 * 1024];
            long lastPrint = start;
            int n;
            while ((n = in.read(buffer)) >= 0) {
                if (messagePerLine) {
                    int from = 0;
                    for (int i = 0; i < n; i++) {
                        if (buffer[i] == '\n') {
                            out.write(buffer, from, i + 1 - from);
                            out.markEndOfMessage();
                            from = i + 1;
                        }
                    }
                    out.write(buffer, from, n - from);
                } else {
                    out.write(buffer, 0, n);
                }
                sent += n;
                long now = System.nanoTime();
                if (!quiet && now - lastPrint > 1_000_000_000L) {
                    lastPrint = now;
                    err.printf("sent %d bytes, %.1f MB/s%n", sent, sent / ((now - start) / 1e9) / 1e6);
                }
                if (deadline != Long.MAX_VALUE && now - deadline >= 0) {
                    err.println("fjm2 norm send: timed out while streaming stdin");
                    return 1;
                }
            }
            out.end();
            if (!out.awaitFinished(Duration.ofNanos(remaining(deadline)))) {
                err.println("fjm2 norm send: timed out before the end of the stream went out");
                return 1;
            }
            if (!lingerTime.isZero()) {
                Thread.sleep(lingerTime.toMillis());
            }
        }
        if (!quiet) {
            double seconds = Math.max(1e-3, (System.nanoTime() - start) / 1e9);
            err.printf("stream ended: %d bytes in %.2f s (%.1f MB/s)%n", sent, seconds, sent / seconds / 1e6);
        }
        return 0;
    }

    /** The file's size, read with its type in one look (a directory of many files is checked in one pass each). */
    private static long regularFileSize(Path file) {
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            if (attributes.isRegularFile()) {
                return attributes.size();
            }
        } catch (java.io.IOException e) {
            // reported below, as for any other path that is not a file
        }
        throw new IllegalArgumentException("FILE: not a readable file: " + file);
    }

    /** The arguments with each directory replaced by its regular files, by name. */
    static List<Path> expandDirectories(List<Path> arguments) throws java.io.IOException {
        List<Path> expanded = new ArrayList<>();
        for (Path argument : arguments) {
            if (!Files.isDirectory(argument)) {
                expanded.add(argument);
                continue;
            }
            List<NamedFile> inside = new ArrayList<>();
            try (DirectoryStream<Path> listing = Files.newDirectoryStream(argument)) {
                for (Path entry : listing) {
                    if (Files.isRegularFile(entry)) {
                        inside.add(new NamedFile(entry.getFileName().toString(), entry));
                    }
                }
            }
            if (inside.isEmpty()) {
                throw new IllegalArgumentException("FILE: no regular files in directory " + argument);
            }
            // Names taken once: sorting tens of thousands by Path.getFileName() per comparison cost a tenth of a
            // second of the command's start.
            inside.sort(Comparator.comparing(NamedFile::name));
            for (NamedFile f : inside) {
                expanded.add(f.path());
            }
        }
        return expanded;
    }

    private record NamedFile(String name, Path path) {
    }

    private static long remaining(long deadline) {
        if (deadline == Long.MAX_VALUE) {
            return TimeUnit.DAYS.toNanos(365);
        }
        return Math.max(1, deadline - System.nanoTime());
    }

    /** Progress on stderr, at most once a second. */
    static final class Progress {
        private final PrintStream err;
        private final boolean quiet;
        private final long total;
        private final long start = System.nanoTime();
        private long done;
        private long lastPrint;

        Progress(PrintStream err, boolean quiet, long total) {
            this.err = err;
            this.quiet = quiet;
            this.total = total;
        }

        void add(long bytes, String what) {
            done += bytes;
            long now = System.nanoTime();
            if (!quiet && now - lastPrint > 1_000_000_000L) {
                lastPrint = now;
                double seconds = Math.max(1e-3, (now - start) / 1e9);
                err.printf("queued %s: %d of %d bytes (%.0f%%), %.1f MB/s%n", what, done, total,
                        100.0 * done / total, done / seconds / 1e6);
            }
        }

        void done() {
            if (!quiet) {
                double seconds = Math.max(1e-3, (System.nanoTime() - start) / 1e9);
                err.printf("done: %d bytes in %.2f s (%.1f MB/s)%n", total, seconds, total / seconds / 1e6);
            }
        }
    }
}
