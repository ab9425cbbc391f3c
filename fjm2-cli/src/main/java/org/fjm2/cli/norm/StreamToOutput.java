package org.fjm2.cli.norm;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.api.LossReason;
import org.fjm2.norm.api.NormListener;
import org.fjm2.norm.api.RemoteSenderInfo;

/**
 * {@code fjm2 norm recv --stream}'s pipe: the first stream a sender opens is followed (others are reported and
 * ignored), its bytes are copied off the session's event loop into a bounded queue and written, in order, to the
 * output by the command's thread; gaps and the end come through the same queue, so they are seen in their place.
 * Optionally skips to the next message start the sender marked, when it joined late and after every gap.
 */
final class StreamToOutput implements NormListener {

    /** What comes out of the queue. */
    sealed interface Event permits Data, Gap, End {
    }

    record Data(byte[] bytes) implements Event {
    }

    record Gap(long offset, long bytes) implements Event {
    }

    record End(long offset, LossReason reason) implements Event {
    }

    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final AtomicLong queuedBytes = new AtomicLong();
    private final long maxQueued;
    private final boolean fromMessageStart;
    private final PrintStream log;
    private volatile boolean overflowed;
    private int senderId;
    private int streamId = -1;
    private boolean seeking;

    /**
     * @param maxQueued        bytes that may wait for the output at most (the network does not wait for it)
     * @param fromMessageStart deliver from a message start only, after joining and after gaps
     */
    StreamToOutput(long maxQueued, boolean fromMessageStart, PrintStream log) {
        this.maxQueued = maxQueued;
        this.fromMessageStart = fromMessageStart;
        this.log = log;
    }

    private boolean followed(RemoteSenderInfo sender, int id) {
        return streamId == id && senderId == sender.nodeId();
    }

    /** The stream's NORM_INFO (e.g. a name the sender gave it): on the log, escaped, never on the output. */
    @Override
    public synchronized void onStreamInfo(RemoteSenderInfo sender, int id, ByteBuf info) {
        log.printf("stream %d from node %s: info '%s'%n", id, Integer.toUnsignedString(sender.nodeId()),
                printable(info));
    }

    /** The info as text, with control characters and invalid UTF-8 shown escaped, at most 256 characters. */
    private static String printable(ByteBuf info) {
        String text = info.toString(java.nio.charset.StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length() && out.length() < 256; i++) {
            char c = text.charAt(i);
            out.append(Character.isISOControl(c) || c == '\uFFFD' ? String.format("\\u%04x", (int) c)
                    : String.valueOf(c));
        }
        return out.toString();
    }

    @Override
    public synchronized void onStreamOpened(RemoteSenderInfo sender, int id, long offset) {
        if (streamId >= 0) {
            log.printf("ignoring stream %d from node %s: following stream %d from node %s%n", id,
                    Integer.toUnsignedString(sender.nodeId()), streamId, Integer.toUnsignedString(senderId));
            return;
        }
        senderId = sender.nodeId();
        streamId = id;
        seeking = fromMessageStart;
        log.printf("stream %d from node %s, joined at offset %d%n", id, Integer.toUnsignedString(senderId), offset);
    }

    @Override
    public synchronized void onStreamData(RemoteSenderInfo sender, int id, long offset, ByteBuf data,
                                          int messageStart) {
        if (!followed(sender, id) || overflowed) {
            return;
        }
        int from = 0;
        if (seeking) {
            if (messageStart < 0) {
                return;
            }
            from = messageStart;
            seeking = false;
            log.printf("writing from the message start at offset %d%n", offset + messageStart);
        }
        int length = data.readableBytes() - from;
        if (queuedBytes.addAndGet(length) > maxQueued) {
            overflowed = true;
            events.add(new End(offset, null));
            return;
        }
        byte[] copy = new byte[length];
        data.getBytes(data.readerIndex() + from, copy);
        events.add(new Data(copy));
    }

    @Override
    public synchronized void onStreamGap(RemoteSenderInfo sender, int id, long offset, long bytes) {
        if (followed(sender, id) && !overflowed) {
            seeking = fromMessageStart;
            events.add(new Gap(offset, bytes));
        }
    }

    @Override
    public synchronized void onStreamClosed(RemoteSenderInfo sender, int id, long offset, LossReason reason) {
        if (followed(sender, id) && !overflowed) {
            events.add(new End(offset, reason));
        } else if (streamId < 0 && reason != null) {
            log.printf("stream %d from node %s refused: %s%n", id, Integer.toUnsignedString(sender.nodeId()),
                    reason.description());
        }
    }

    /** Whether the output fell more than the bound behind (the stream was then given up). */
    boolean overflowed() {
        return overflowed;
    }

    /** The next event, waiting at most {@code nanos}; null on timeout. Data is written to {@code out} here. */
    Event next(long nanos, OutputStream out) throws InterruptedException, IOException {
        Event e = events.poll(nanos, TimeUnit.NANOSECONDS);
        if (e instanceof Data d) {
            out.write(d.bytes());
            queuedBytes.addAndGet(-d.bytes().length);
        }
        return e;
    }
}
