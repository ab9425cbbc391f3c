package org.fjm2.cli.norm;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.Callable;
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
 * (sanitised to a plain file name) or, without info, by sender and transport id; with {@code --stream}, receives a
 * stream (NORM_OBJECT_STREAM) and writes its bytes to stdout.
 */
@Command(name = "recv", mixinStandardHelpOptions = true,
        description = {"Receive NORM data objects from a multicast group and write each as a file.",
                "Files are named by the object's NORM_INFO when present, else object-<sender>-<id>.bin.",
                "With --stream, receive a NORM stream instead (fjm2 norm send --stream, NRL's NormStreamWrite) and"
                        + " write its bytes to stdout in order, from where this receiver joined it to its end;"
                        + " progress, gaps and the summary go to stderr."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:received --count objects (--stream: the stream ended and every byte since joining was"
                + " written)", "1:failure, or timeout before --count objects (--stream: before the stream ended;"
                + " the stream given up; stdout too slow)", "2:bad arguments",
                "3:--stream: the stream ended with gaps (bytes lost beyond repair; reported on stderr)"})
public final class NormRecvCommand implements Callable<Integer> {

    @Mixin
    SessionOptions session;

    @Option(names = "--out", paramLabel = "DIR", description = "Directory to write objects into (not with --stream).")
    Path out;

    @Option(names = "--stream", description = "Receive a stream and write its bytes to stdout (instead of objects"
            + " into --out); exits when the sender ends the stream.")
    boolean stream;

    @Option(names = "--stream-buffer", paramLabel = "BYTES", defaultValue = "16m",
            description = "--stream: most bytes held for the stream between what was written and the newest heard"
                    + " (reordering, repairs); the sender's own buffer, doubled, if smaller. Default:"
                    + " ${DEFAULT-VALUE}.")
    String streamBuffer;

    @Option(names = "--stdout-buffer", paramLabel = "BYTES", defaultValue = "64m",
            description = "--stream: most bytes waiting for stdout; a stdout slower than the stream by more ends the"
                    + " command with an error (the network does not wait for it). Default: ${DEFAULT-VALUE}.")
    String stdoutBuffer;

    @Option(names = "--from-message-start",
            description = "--stream: write from a message start the sender marked (NormStreamMarkEom, fjm2 norm send"
                    + " --stream --message-per-line), after joining a running stream and after every gap.")
    boolean fromMessageStart;

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

    @Option(names = "--write-buffer", paramLabel = "BYTES", defaultValue = "64m",
            description = "Most bytes of received objects waiting to be written (an object larger than this waits"
                    + " alone); when the disk falls behind, receiving pauses until there is room, so memory stays"
                    + " bounded whatever the file sizes. Default: ${DEFAULT-VALUE}.")
    String writeBuffer;

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

    /**
     * Bytes of per-file lines gathered before they go to stdout, whole lines only: PIPE_BUF, the most a pipe takes
     * in one piece, so that when stdout and stderr share a pipe no log line lands inside a file's line.
     */
    static final int LINE_BUFFER_BYTES = 4096;

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
        if (stream) {
            if (out != null) {
                throw new IllegalArgumentException("--out: not with --stream (the stream goes to stdout)");
            }
            return receiveStream();
        }
        if (out == null) {
            throw new IllegalArgumentException("--out: required (or --stream)");
        }
        long maxBytes = Quantities.bytes("--max-size", maxSize);
        if (maxBytes < 1 || maxBytes > MAX_OBJECT_SIZE) {
            throw new IllegalArgumentException("--max-size: must be 1.." + MAX_OBJECT_SIZE + " bytes, got '" + maxSize
                    + "'");
        }
        long backlogBytes = Quantities.bytes("--write-buffer", writeBuffer);
        if (backlogBytes < 1) {
            throw new IllegalArgumentException("--write-buffer: must be positive, got '" + writeBuffer + "'");
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
        WriteBacklog<Event> events = new WriteBacklog<>(backlogBytes);
        NormListener listener = new NormListener() {
            @Override
            public void onObjectReceived(RemoteSenderInfo sender, int objectId, ByteBuf data, ByteBuf info) {
                String name = info == null ? null : info.toString(info.readerIndex(), info.readableBytes(),
                        StandardCharsets.UTF_8);
                ByteBuf kept = data.retainedDuplicate();
                if (!events.put(new Event(sender.nodeId(), objectId, kept, name, null), kept.readableBytes())) {
                    kept.release();     // the command is ending: nothing will write it
                }
            }

            @Override
            public void onObjectLost(RemoteSenderInfo sender, int objectId, LossReason reason) {
                events.put(new Event(sender.nodeId(), objectId, null, null, reason), 0);
            }
        };
        // a line per file, written in batches of whole lines: flushed whenever no file is waiting
        PrintStream lines = new PrintStream(new BufferedOutputStream(stdout, LINE_BUFFER_BYTES), false);
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
            try {
                while (count == 0 || written < count) {
                    long now = System.nanoTime();
                    shown.maybePrint(now, written, bytes, lost);
                    long wait = deadline == Long.MAX_VALUE ? POLL_NANOS : deadline - now;
                    if (wait <= 0) {
                        stderr.printf("fjm2 norm recv: timed out after %.1f s with %d of %d objects (%d lost)%n",
                                (now - start) / 1e9, written, count, lost);
                        return 1;
                    }
                    Event e = events.poll();
                    if (e == null) {
                        lines.flush(); // the lines of what was written, before waiting for more
                        e = events.poll(Math.min(wait, shown.nanosUntilDue(now, POLL_NANOS)));
                    }
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
                            // one piece per line (see LINE_BUFFER_BYTES); no Formatter at thousands of files a second
                            lines.print("received " + file + " (" + e.data.readableBytes() + " bytes, object "
                                    + e.objectId + " from node " + Integer.toUnsignedString(e.sender) + ")"
                                    + System.lineSeparator());
                        }
                    } finally {
                        events.written(e.data.readableBytes());
                        e.data.release();
                    }
                }
            } finally {
                lines.flush();
                // objects after the last one counted are not written: the event loop must not wait for a writer
                for (Event left : events.close()) {
                    if (left.data != null) {
                        left.data.release();
                    }
                }
            }
            if (!lingerTime.isZero()) {
                Thread.sleep(lingerTime.toMillis());
            }
        }
        double seconds = Math.max(1e-3, (System.nanoTime() - start) / 1e9);
        stderr.printf("received %d objects, %d bytes in %.2f s; %d lost%n", written, bytes, seconds, lost);
        if (events.waits() > 0 && !quiet) {
            stderr.printf("writing was slower than the network: receiving paused %d times for the %s write buffer"
                    + " (at most %d bytes waited)%n", events.waits(), writeBuffer, events.peakBytes());
        }
        return 0;
    }

    /** {@code --stream}: the first stream heard, to stdout, until its sender ends it. */
    private int receiveStream() throws Exception {
        long bufferBytes = Quantities.bytes("--stream-buffer", streamBuffer);
        if (bufferBytes < 64 * 1024 || bufferBytes > (1L << 30)) {
            throw new IllegalArgumentException("--stream-buffer: must be 64k..1g, got '" + streamBuffer + "'");
        }
        long maxQueued = Quantities.bytes("--stdout-buffer", stdoutBuffer);
        if (maxQueued < 1) {
            throw new IllegalArgumentException("--stdout-buffer: must be positive, got '" + stdoutBuffer + "'");
        }
        Duration lingerTime = Quantities.duration("--linger", linger);
        Duration progressInterval = quiet ? Duration.ZERO : Quantities.duration("--progress", progress);
        long deadline = SessionOptions.deadline("--timeout", timeout);
        NormConfig config = session.builder().streamBufferBytes(bufferBytes)
                .receiveBufferBytes(Math.max(NormConfig.DEFAULT_RECEIVE_BUFFER_BYTES, bufferBytes)).build();
        StreamToOutput pipe = new StreamToOutput(maxQueued, fromMessageStart, stderr);
        long written = 0;
        long gaps = 0;
        long gapBytes = 0;
        long start = System.nanoTime();
        try (NormSession norm = NormSession.open(config, pipe, java.util.concurrent.ThreadLocalRandom.current()
                .nextLong(), session.transports(false))) {
            stderr.printf("listening on %s (node %s) for a stream%n", session.group,
                    Integer.toUnsignedString(norm.nodeId()));
            long nextProgress = progressInterval.isZero() ? Long.MAX_VALUE : start + progressInterval.toNanos();
            while (true) {
                long now = System.nanoTime();
                if (now - nextProgress >= 0) {
                    nextProgress = now + progressInterval.toNanos();
                    double seconds = (now - start) / 1e9;
                    stderr.printf("%7.1f s  %.1f MB written (%.1f MB/s), %d gaps (%d bytes), %d NACKs sent%n",
                            seconds, written / 1e6, written / 1e6 / Math.max(seconds, 1e-3), gaps, gapBytes,
                            norm.counters().get(org.fjm2.norm.api.NormCounters.Counter.NACKS_SENT));
                }
                if (deadline != Long.MAX_VALUE && deadline - now <= 0) {
                    stdout.flush();
                    stderr.printf("fjm2 norm recv: timed out after %.1f s with %d bytes written%n",
                            (now - start) / 1e9, written);
                    return 1;
                }
                long wait = Math.min(POLL_NANOS, Math.min(deadline - now, Math.max(1, nextProgress - now)));
                StreamToOutput.Event e = pipe.next(wait, stdout);
                if (e instanceof StreamToOutput.Data d) {
                    written += d.bytes().length;
                    if (stdout.checkError()) {
                        stderr.println("fjm2 norm recv: cannot write to stdout");
                        return 1;
                    }
                } else if (e instanceof StreamToOutput.Gap g) {
                    gaps++;
                    gapBytes += g.bytes();
                    stderr.printf("GAP of %d bytes at stream offset %d: lost beyond repair%n", g.bytes(), g.offset());
                } else if (e instanceof StreamToOutput.End end) {
                    stdout.flush();
                    if (pipe.overflowed()) {
                        stderr.printf("fjm2 norm recv: stdout fell more than %d bytes behind the stream%n", maxQueued);
                        return 1;
                    }
                    if (end.reason() != null) {
                        stderr.printf("fjm2 norm recv: stream given up after %d bytes: %s%n", written,
                                end.reason().description());
                        return 1;
                    }
                    break;
                }
            }
            if (!lingerTime.isZero()) {
                Thread.sleep(lingerTime.toMillis());
            }
        }
        double seconds = Math.max(1e-3, (System.nanoTime() - start) / 1e9);
        stderr.printf("stream ended: %d bytes written in %.2f s; %d gaps (%d bytes lost)%n", written, seconds, gaps,
                gapBytes);
        return gaps > 0 ? 3 : 0;
    }

    private Path write(Event e) throws IOException {
        String name = safeName(e.name);
        if (name == null) {
            name = "object-" + Integer.toUnsignedString(e.sender) + "-" + e.objectId + ".bin";
        }
        Path file = out.resolve(name);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            // straight from the (direct) buffer: no copy through a heap array
            ByteBuffer[] parts = e.data.nioBuffers();
            long remaining = e.data.readableBytes();
            while (remaining > 0) {
                remaining -= channel.write(parts);
            }
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
