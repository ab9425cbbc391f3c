package org.fjm2.norm.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.EventLoop;
import org.fjm2.norm.NormSession;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormListener;
import org.fjm2.norm.api.RemoteSenderInfo;
import org.fjm2.norm.transport.InMemoryTransport;

/**
 * A real {@link NormSession} over an {@link InMemoryTransport}, fed datagrams the way a socket read loop would:
 * each datagram in a fresh buffer, one {@code onDatagram} and one {@code onReadComplete} per datagram, on the
 * session's event loop. The cost of an input is read from the event-loop thread's own counters, from the start of
 * the injection until the tasks it queued (transmit passes) have run.
 */
public final class SessionUnderFuzz implements AutoCloseable {

    /** This session's node id (fuzzed feedback addresses it). */
    public static final int NODE_ID = 0x0F0F0F01;

    /** Where the injected datagrams claim to come from. */
    public static final InetSocketAddress PEER = new InetSocketAddress("127.0.0.2", 5740);

    /** How long the test thread waits for the event loop before it declares it stuck. */
    private static final long STUCK_SECONDS = 30;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private final NormSession session;
    private final InMemoryTransport transport;
    private final ReadingListener listener;
    private final long loopThreadId;

    private SessionUnderFuzz(NormSession session, InMemoryTransport transport, ReadingListener listener) {
        this.session = session;
        this.transport = transport;
        this.listener = listener;
        this.loopThreadId = onLoop(() -> Thread.currentThread().getId());
    }

    /**
     * Overrides the receivers' maximum object size in a fuzzing session (bytes), so that the fuzzer explores past the
     * known finding that a header alone makes a receiver allocate up to that size; never set in regression runs,
     * which use the production limits.
     */
    public static final String EXPLORE_MAX_OBJECT_SIZE = "fjm2.fuzz.maxObjectSize";

    /** The configuration the targets use: defaults (production limits), a fixed node id, no sockets. */
    public static NormConfig.Builder config() {
        NormConfig.Builder builder = NormConfig.builder(InMemoryTransport.GROUP.getHostString(),
                InMemoryTransport.GROUP.getPort()).nodeId(NODE_ID);
        Integer exploreMaxObjectSize = Integer.getInteger(EXPLORE_MAX_OBJECT_SIZE);
        return exploreMaxObjectSize == null ? builder : builder.maxObjectSize(exploreMaxObjectSize);
    }

    /** Opens a session with a fixed back-off seed whose listener reads every byte it is given. */
    public static SessionUnderFuzz open(NormConfig config, long seed) {
        return open(config, seed, new NormListener() { });
    }

    /** Like {@link #open(NormConfig, long)}, and {@code streams} also hears every stream event. */
    public static SessionUnderFuzz open(NormConfig config, long seed, NormListener streams) {
        AtomicReference<InMemoryTransport> created = new AtomicReference<>();
        ReadingListener listener = new ReadingListener(streams);
        try {
            NormSession session = NormSession.open(config, listener, seed,
                    InMemoryTransport.factory(InMemoryTransport::discard, created::set));
            return new SessionUnderFuzz(session, created.get(), listener);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public NormSession session() {
        return session;
    }

    /** Object id of the first object this session's sender started to send (random per session), or 0. */
    public int firstSentObjectId() {
        return listener.firstSentObjectId;
    }

    /**
     * Delivers the datagrams in order and returns what they cost the event loop. An exception thrown by the session
     * escapes here unchanged.
     */
    public InputBounds.Cost inject(List<byte[]> datagrams) {
        long[] start = onLoop(() -> {
            long[] before = {THREADS.getThreadAllocatedBytes(loopThreadId), System.nanoTime()};
            for (byte[] bytes : datagrams) {
                ByteBuf datagram = transport.allocator().heapBuffer(Math.max(1, bytes.length));
                datagram.writeBytes(bytes);
                try {
                    transport.handler().onDatagram(datagram, PEER);
                } finally {
                    datagram.release();
                }
                transport.handler().onReadComplete();
            }
            return before;
        });
        // Runs after every task the injection queued (wake-ups, transmit passes), on the same thread.
        return onLoop(() -> new InputBounds.Cost(System.nanoTime() - start[1],
                THREADS.getThreadAllocatedBytes(loopThreadId) - start[0]));
    }

    /** Runs {@code task} on the event loop and returns its result; its exception escapes unchanged. */
    public <T> T onLoop(java.util.concurrent.Callable<T> task) {
        EventLoop loop = transport.eventLoop();
        CompletableFuture<T> result = new CompletableFuture<>();
        loop.execute(() -> {
            try {
                result.complete(task.call());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        try {
            return result.get(STUCK_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (TimeoutException e) {
            throw new AssertionError("the session's event loop did not answer within " + STUCK_SECONDS + " s", e);
        }
    }

    @Override
    public void close() {
        session.close();
    }

    /** Touches every byte delivered, so a buffer released or sliced wrongly by the receiver fails here. */
    private static final class ReadingListener implements NormListener {
        private final NormListener streams;
        private volatile boolean sentAny;
        private volatile int firstSentObjectId;

        ReadingListener(NormListener streams) {
            this.streams = streams;
        }

        @Override
        public void onStreamOpened(RemoteSenderInfo sender, int streamId, long offset) {
            streams.onStreamOpened(sender, streamId, offset);
        }

        @Override
        public void onStreamData(RemoteSenderInfo sender, int streamId, long offset, ByteBuf data, int messageStart) {
            ByteBufUtil.hashCode(data);
            streams.onStreamData(sender, streamId, offset, data, messageStart);
        }

        @Override
        public void onStreamGap(RemoteSenderInfo sender, int streamId, long offset, long bytes) {
            streams.onStreamGap(sender, streamId, offset, bytes);
        }

        @Override
        public void onStreamClosed(RemoteSenderInfo sender, int streamId, long offset,
                                   org.fjm2.norm.api.LossReason reason) {
            streams.onStreamClosed(sender, streamId, offset, reason);
        }

        @Override
        public void onTxObjectStarted(long ticket, int objectId) {
            if (!sentAny) {
                firstSentObjectId = objectId;
                sentAny = true;
            }
        }

        @Override
        public void onObjectReceived(RemoteSenderInfo sender, int objectId, ByteBuf data, ByteBuf info) {
            ByteBufUtil.hashCode(data);
            if (info != null) {
                ByteBufUtil.hashCode(info);
            }
        }
    }
}
