package org.fjm2.admin;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.ToIntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the list's stamp to every registered node, one {@link Advertisement} datagram each, from an unconnected
 * UDP socket. The sending runs on a thread of its own, so that a slow name lookup never holds up the registry:
 * {@link #advertise} hands it a snapshot and returns; a snapshot still waiting when a newer one comes is replaced
 * by it (the newer stamp says all the older one would have). Host names are resolved once per
 * {@link #RESOLVE_TTL_MILLIS}; a node whose host does not resolve or whose send fails is skipped, counted and
 * logged (once per node until it succeeds again), never retried in a loop. A name that resolves to an address the
 * registry refuses as a literal ({@link NodeAddressRules#checkDestination}) gets nothing, counted the same way.
 */
final class Advertiser implements AutoCloseable {

    /** How long a resolved host name is reused before it is resolved again. */
    static final long RESOLVE_TTL_MILLIS = 60_000;

    private static final Logger LOG = LoggerFactory.getLogger(Advertiser.class);

    private final Advertisement codec;
    private final ToIntFunction<String> tokenIndexOfNode;
    private final LongSupplier clock;
    private final boolean allowLoopback;
    private final ThreadPoolExecutor sender;
    private final DatagramChannel channel4;
    private final DatagramChannel channel6;
    private final ByteBuffer datagram = ByteBuffer.allocateDirect(Advertisement.LENGTH);
    private final SecureRandom nonces = new SecureRandom();
    private final Map<String, Resolved> resolved = new HashMap<>();
    private final Map<String, Boolean> failing = new HashMap<>();
    private volatile long sent;
    private volatile long failed;

    private record Resolved(String host, InetAddress address, long at) {
    }

    /**
     * @param tokenIndexOfNode the token a node registered with: its advertisements are keyed by it; called on the
     *     advertiser's thread, so it must be thread-safe
     */
    Advertiser(TokenSet tokens, ToIntFunction<String> tokenIndexOfNode, LongSupplier clock, boolean allowLoopback)
            throws IOException {
        this.codec = new Advertisement(tokens);
        this.clock = clock;
        this.allowLoopback = allowLoopback;
        this.sender = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(1), r -> {
            Thread t = new Thread(r, "fjm2-admin-advertiser");
            t.setDaemon(true);
            return t;
        }, new ThreadPoolExecutor.DiscardOldestPolicy());
        this.tokenIndexOfNode = tokenIndexOfNode;
        this.channel4 = DatagramChannel.open(StandardProtocolFamily.INET);
        DatagramChannel v6;
        try {
            v6 = DatagramChannel.open(StandardProtocolFamily.INET6);
        } catch (IOException | UnsupportedOperationException e) {
            v6 = null;
        }
        this.channel6 = v6;
    }

    /** Has {@code snapshot}'s stamp sent to each of its nodes, soon, on the advertiser's thread. */
    void advertise(RegistrySnapshot snapshot) {
        try {
            sender.execute(() -> sendAll(snapshot, clock.getAsLong()));
        } catch (RejectedExecutionException e) {
            LOG.debug("advertiser stopped; advertisement of {} not sent", snapshot.lastModified());
        }
    }

    private void sendAll(RegistrySnapshot snapshot, long now) {
        for (Node node : snapshot.nodes()) {
            sendTo(node, snapshot.lastModified(), now);
        }
        if (resolved.size() > 2 * snapshot.nodes().size() + 16) {
            resolved.clear();
        }
        if (failing.size() > snapshot.nodes().size()) {
            failing.keySet().retainAll(snapshot.nodes().stream().map(Node::id).toList());
        }
    }

    private void sendTo(Node node, long lastModified, long now) {
        try {
            InetAddress address = resolve(node.host(), now);
            String refused = NodeAddressRules.checkDestination(address, allowLoopback);
            if (refused != null) {
                throw new IOException(node.host() + " resolves to " + address.getHostAddress() + ": " + refused);
            }
            codec.encode(datagram, tokenIndexOfNode.applyAsInt(node.id()), lastModified, now, nonces.nextLong());
            DatagramChannel channel = address.getAddress().length == 4 ? channel4 : channel6;
            if (channel == null) {
                throw new IOException("IPv6 is not available to reach " + address);
            }
            channel.send(datagram, new InetSocketAddress(address, node.port()));
            sent++; // single writer: the advertiser thread
            if (failing.remove(node.id()) != null) {
                LOG.info("advertisement to node {} at {}:{} works again", node.id(), node.host(), node.port());
            }
        } catch (IOException | RuntimeException e) {
            failed++;
            if (failing.put(node.id(), Boolean.TRUE) == null) {
                LOG.warn("cannot advertise to node {} at {}:{}: {} (counted; logged once until it works)",
                        node.id(), node.host(), node.port(), e.toString());
            }
        }
    }

    private InetAddress resolve(String host, long now) throws UnknownHostException {
        Resolved r = resolved.get(host);
        if (r == null || now - r.at > RESOLVE_TTL_MILLIS) {
            r = new Resolved(host, InetAddress.getByName(host), now);
            resolved.put(host, r);
        }
        return r.address;
    }

    /** Datagrams sent so far. */
    long sent() {
        return sent;
    }

    /** Datagrams that could not be sent (unresolvable host, socket error). */
    long failed() {
        return failed;
    }

    @Override
    public void close() throws IOException {
        sender.shutdownNow();
        try {
            sender.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        channel4.close();
        if (channel6 != null) {
            channel6.close();
        }
    }
}
