package org.fjm2.tunnel.admin;

import io.netty.buffer.ByteBuf;
import java.net.InetAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * FJM2D's side of FJM2-Admin. Registers this node, re-registers every {@code keepalive} (keep it well inside the
 * admin's expiry, e.g. a third of it), fetches the peer list when an authentic advertisement carries a newer stamp,
 * polls with {@code If-None-Match} every {@link Options#pollInterval()} in case an advertisement was lost, and
 * deregisters on {@link #close()}. Every HTTP call and every {@code onPeers} call runs on the client's own thread;
 * {@link #offerAdvertisement} may be called from any thread (the tunnel's receive loop) and never blocks on I/O.
 *
 * <p>{@code onPeers} receives the other nodes (this one left out) after the first successful fetch and again
 * whenever the list changes.
 */
public final class AdminClient implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AdminClient.class);

    /**
     * The client's tunables.
     *
     * @param pollInterval period of the safety poll with {@code If-None-Match}; default 60 s
     * @param replayWindow how far an advertisement's timestamp may be from the local clock; default 120 s
     * @param requestTimeout bound on each HTTP call; default 10 s
     */
    public record Options(Duration pollInterval, Duration replayWindow, Duration requestTimeout) {
        public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(60);
        public static final Duration DEFAULT_REPLAY_WINDOW = Duration.ofSeconds(120);
        public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);

        public static Options defaults() {
            return new Options(DEFAULT_POLL_INTERVAL, DEFAULT_REPLAY_WINDOW, DEFAULT_REQUEST_TIMEOUT);
        }
    }

    private final AdminApi api;
    private final String nodeId;
    private final String advertisedHost;
    private final int advertisedPort;
    private final Duration keepalive;
    private final Options options;
    private final Consumer<List<PeerAddress>> onPeers;
    private final ScheduledExecutorService thread;

    // Guarded by verifierLock: called from the tunnel's threads.
    private final Object verifierLock = new Object();
    private final AdvertisementVerifier verifier;
    private final ReplayGuard replayGuard;

    /** Highest stamp known from the admin (a fetched list, a registration answer or an advertisement). */
    private final AtomicLong knownStamp = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong rejected = new AtomicLong();

    // Owned by the client thread.
    private String etag;
    private long fetchedStamp = Long.MIN_VALUE;
    private List<PeerAddress> delivered;
    private boolean registrationFailing;
    private volatile boolean closed;

    /** A client with {@link Options#defaults()}. */
    public AdminClient(URI admin, String token, String nodeId, String advertisedHost, int advertisedPort,
                       Duration keepalive, Consumer<List<PeerAddress>> onPeers) {
        this(admin, token, nodeId, advertisedHost, advertisedPort, keepalive, onPeers, Options.defaults());
    }

    public AdminClient(URI admin, String token, String nodeId, String advertisedHost, int advertisedPort,
                       Duration keepalive, Consumer<List<PeerAddress>> onPeers, Options options) {
        if (keepalive.isNegative() || keepalive.isZero()) {
            throw new IllegalArgumentException("keepalive must be positive");
        }
        this.api = new AdminApi(admin, token, options.requestTimeout());
        this.nodeId = Objects.requireNonNull(nodeId, "nodeId");
        this.advertisedHost = Objects.requireNonNull(advertisedHost, "advertisedHost");
        this.advertisedPort = advertisedPort;
        this.keepalive = keepalive;
        this.options = options;
        this.onPeers = Objects.requireNonNull(onPeers, "onPeers");
        this.verifier = new AdvertisementVerifier(token);
        this.replayGuard = new ReplayGuard(options.replayWindow().toMillis());
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "fjm2-admin-client-" + nodeId);
            t.setDaemon(true);
            return t;
        });
        if ("http".equalsIgnoreCase(admin.getScheme()) && !isLoopback(admin.getHost())) {
            LOG.warn("FJM2-Admin at {} is reached over plain http: the token crosses the network in clear; "
                    + "prefer https", admin);
        }
    }

    /** Registers now, then keeps alive and polls on schedule. */
    public void start() {
        thread.scheduleWithFixedDelay(this::register, 0, keepalive.toMillis(), TimeUnit.MILLISECONDS);
        long poll = options.pollInterval().toMillis();
        thread.scheduleWithFixedDelay(this::refresh, poll, poll, TimeUnit.MILLISECONDS);
    }

    /**
     * Hands the client a datagram that arrived on the tunnel's port. Returns whether it was a valid advertisement:
     * authentic under the token, inside the replay window, not seen before, and not older than the stamp already
     * known. A newer stamp makes the client fetch the list (on its own thread). Never throws on bad input; the
     * buffer's indexes are not moved and it is not released.
     */
    public boolean offerAdvertisement(ByteBuf datagram) {
        synchronized (verifierLock) {
            return accept(verifier.verify(datagram));
        }
    }

    /** As {@link #offerAdvertisement(ByteBuf)}, for {@code length} bytes of an array from {@code offset}. */
    public boolean offerAdvertisement(byte[] datagram, int offset, int length) {
        synchronized (verifierLock) {
            return accept(verifier.verify(datagram, offset, length));
        }
    }

    /** As {@link #offerAdvertisement(ByteBuf)}, for a whole array. */
    public boolean offerAdvertisement(byte[] datagram) {
        return offerAdvertisement(datagram, 0, datagram.length);
    }

    private boolean accept(AdvertisementVerifier.Result result) {
        if (result != AdvertisementVerifier.Result.VALID) {
            return reject("{} datagram", result);
        }
        ReplayGuard.Result replay = replayGuard.check(verifier.timestamp(), verifier.nonce(), System.currentTimeMillis());
        if (replay != ReplayGuard.Result.FRESH) {
            return reject(replay == ReplayGuard.Result.OUTSIDE_WINDOW
                    ? "{} advertisement (check that the clocks of admin and daemon agree)" : "{} advertisement", replay);
        }
        long stamp = verifier.lastModified();
        long known = knownStamp.get();
        if (stamp < known) {
            return reject("{} advertisement", "OLD_STAMP");
        }
        accepted.incrementAndGet();
        if (stamp > known && knownStamp.compareAndSet(known, stamp) && !closed) {
            LOG.debug("advertisement with newer stamp {} (had {}): fetching the list", stamp, known);
            thread.execute(this::refresh);
        }
        return true;
    }

    private boolean reject(String what, Object reason) {
        long n = rejected.incrementAndGet();
        if (Long.bitCount(n) == 1) {
            LOG.warn("rejected " + what + "; {} rejected so far (logged at powers of two)", reason, n);
        }
        return false;
    }

    private void register() {
        if (closed) {
            return;
        }
        try {
            long stamp = api.register(nodeId, advertisedHost, advertisedPort);
            if (registrationFailing) {
                LOG.info("registered with FJM2-Admin again");
                registrationFailing = false;
            }
            if (stamp != fetchedStamp) {
                refresh();
            }
        } catch (AdminApiException e) {
            if (!registrationFailing) {
                LOG.warn("registration of node {} failed (retrying every {}): {}", nodeId, keepalive, e.getMessage());
                registrationFailing = true;
            }
        }
    }

    private void refresh() {
        if (closed) {
            return;
        }
        try {
            var list = api.list(etag);
            if (list.isEmpty()) {
                return;
            }
            AdminApi.PeerList fetched = list.get();
            etag = fetched.etag();
            fetchedStamp = fetched.lastModified();
            // Stamps only grow: the admin stamps with max(previous + 1, wall clock), even after losing its database.
            knownStamp.accumulateAndGet(fetched.lastModified(), Math::max);
            List<PeerAddress> others = fetched.peers().stream().filter(p -> !p.id().equals(nodeId)).toList();
            if (!others.equals(delivered)) {
                delivered = others;
                LOG.info("peer list changed (stamp {}): {} peer(s)", fetched.lastModified(), others.size());
                onPeers.accept(others);
            }
        } catch (AdminApiException e) {
            LOG.warn("fetching the peer list failed (next try on the next advertisement or poll): {}", e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("the peer list consumer failed", e);
        }
    }

    /** The highest list stamp this client knows of. */
    public long knownLastModified() {
        return knownStamp.get();
    }

    /** Valid advertisements accepted so far. */
    public long advertisementsAccepted() {
        return accepted.get();
    }

    /** Datagrams offered that were not valid advertisements (forged, replayed, old, not ours). */
    public long advertisementsRejected() {
        return rejected.get();
    }

    /** Stops the schedule and deregisters this node (bounded by the request timeout). */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        thread.shutdownNow();
        try {
            thread.awaitTermination(options.requestTimeout().toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            if (api.deregister(nodeId)) {
                LOG.info("deregistered node {} from FJM2-Admin", nodeId);
            } else {
                LOG.info("node {} was not registered with FJM2-Admin (expired, or never registered)", nodeId);
            }
        } catch (AdminApiException e) {
            LOG.warn("deregistration of node {} failed (the admin will expire it): {}", nodeId, e.getMessage());
        }
    }

    private static boolean isLoopback(String host) {
        try {
            return host != null && (host.equals("localhost") || InetAddress.getByName(host).isLoopbackAddress());
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }
}
