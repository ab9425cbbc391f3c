package org.fjm2.tunnel.admin;

import io.netty.buffer.ByteBuf;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.fjm2.norm.util.LogLimiter;
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
 * whenever the list changes. Nodes at addresses no daemon may stream to (multicast, broadcast, unspecified, and
 * loopback unless the admin itself is on loopback) are left out, counted and logged. The peers expire in the daemon
 * too: when for {@link Options#peerExpiry()} neither a list read (200 or 304) nor an authentic advertisement of the
 * list it holds has confirmed them, for instance because the admin is down or cut off, {@code onPeers} gets an
 * empty list, until the admin answers again.
 *
 * <p>With {@link Options#trustedCa()} the admin must be reached over {@code https} and its certificate must be
 * signed by that CA ({@link AdminTrust}); a wrong CA fails every call with a message that says so.
 */
public final class AdminClient implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(AdminClient.class);

    /**
     * The client's tunables.
     *
     * @param pollInterval period of the safety poll with {@code If-None-Match}; default 60 s
     * @param replayWindow how far an advertisement's timestamp may be from the local clock; default 120 s
     * @param requestTimeout bound on each HTTP call; default 10 s
     * @param peerExpiry how long the peers from the admin stay without a confirmation (a list read or an authentic
     *     advertisement of the same list); default 3 min: two polls and the admin's own expiry (90 s) fit in it
     * @param trustedCa the CA certificate file ({@code --admin-ca}) that must have signed the admin's HTTPS
     *     certificate; {@code null}: plain http or the JDK's default authorities
     */
    public record Options(Duration pollInterval, Duration replayWindow, Duration requestTimeout, Duration peerExpiry,
                          Path trustedCa) {
        public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(60);
        public static final Duration DEFAULT_REPLAY_WINDOW = Duration.ofSeconds(120);
        public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);
        public static final Duration DEFAULT_PEER_EXPIRY = Duration.ofMinutes(3);

        public Options {
            if (peerExpiry.isNegative() || peerExpiry.isZero()) {
                throw new IllegalArgumentException("peerExpiry must be positive");
            }
        }

        /** Default peer expiry, no CA. */
        public Options(Duration pollInterval, Duration replayWindow, Duration requestTimeout) {
            this(pollInterval, replayWindow, requestTimeout, DEFAULT_PEER_EXPIRY, null);
        }

        public static Options defaults() {
            return new Options(DEFAULT_POLL_INTERVAL, DEFAULT_REPLAY_WINDOW, DEFAULT_REQUEST_TIMEOUT);
        }

        public Options withPeerExpiry(Duration v) {
            return new Options(pollInterval, replayWindow, requestTimeout, v, trustedCa);
        }

        public Options withTrustedCa(Path v) {
            return new Options(pollInterval, replayWindow, requestTimeout, peerExpiry, v);
        }
    }

    /** Longest pause between two checks of the peers' confirmation. */
    static final long MAX_EXPIRY_CHECK_MILLIS = 10_000;

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
    private final AtomicLong peersRefused = new AtomicLong();
    private final LogLimiter refusedPeerLog = new LogLimiter(TimeUnit.SECONDS.toNanos(10));
    private final boolean adminOnLoopback;
    /** Stamp of the list last read; an advertisement carrying it confirms the peers. */
    private volatile long fetchedStamp = Long.MIN_VALUE;
    /** When the peers were last confirmed (System.nanoTime). */
    private volatile long confirmedAtNanos;

    // Owned by the client thread.
    private String etag;
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
        if (options.trustedCa() != null && !"https".equalsIgnoreCase(admin.getScheme())) {
            throw new IllegalArgumentException("--admin-ca needs an https admin URL, not " + admin);
        }
        this.api = options.trustedCa() == null ? new AdminApi(admin, token, options.requestTimeout())
                : new AdminApi(admin, token, options.requestTimeout(), AdminTrust.fromFile(options.trustedCa()),
                        "the CA in " + options.trustedCa());
        this.adminOnLoopback = isLoopback(admin.getHost());
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

    /**
     * The admin's base URI from what a user typed: {@code admin.example.org:8443} gets {@code https://} when a CA is
     * given (certificates only make sense over TLS) and {@code http://} otherwise; a path always ends in {@code /}.
     *
     * @throws IllegalArgumentException for a scheme other than http/https, or http with a CA
     */
    public static URI adminUri(String typed, boolean caGiven) {
        String text = typed.strip();
        if (!text.contains("://")) {
            text = (caGiven ? "https://" : "http://") + text;
        }
        URI uri;
        try {
            uri = URI.create(text.endsWith("/") ? text : text + "/");
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--admin: not a URL: '" + typed + "'");
        }
        String scheme = uri.getScheme().toLowerCase(java.util.Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            throw new IllegalArgumentException("--admin: expected http(s)://HOST[:PORT]/, got '" + typed + "'");
        }
        if (caGiven && scheme.equals("http")) {
            throw new IllegalArgumentException("--admin-ca needs an https admin URL, not " + typed);
        }
        return uri;
    }

    /** Registers now, then keeps alive and polls on schedule. */
    public void start() {
        thread.scheduleWithFixedDelay(this::register, 0, keepalive.toMillis(), TimeUnit.MILLISECONDS);
        long poll = options.pollInterval().toMillis();
        thread.scheduleWithFixedDelay(this::refresh, poll, poll, TimeUnit.MILLISECONDS);
        long check = Math.max(1, Math.min(MAX_EXPIRY_CHECK_MILLIS, options.peerExpiry().toMillis() / 4));
        thread.scheduleWithFixedDelay(this::expireUnconfirmedPeers, check, check, TimeUnit.MILLISECONDS);
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
        if (stamp == fetchedStamp) {
            confirmedAtNanos = System.nanoTime(); // the admin still serves the list this daemon holds
        }
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
            } else {
                confirmedAtNanos = System.nanoTime(); // the admin answered with the stamp of the list held
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
            confirmedAtNanos = System.nanoTime();
            if (list.isEmpty()) {
                return;
            }
            AdminApi.PeerList fetched = list.get();
            etag = fetched.etag();
            fetchedStamp = fetched.lastModified();
            // Stamps only grow: the admin stamps with max(previous + 1, wall clock), even after losing its database.
            knownStamp.accumulateAndGet(fetched.lastModified(), Math::max);
            List<PeerAddress> others = fetched.peers().stream()
                    .filter(p -> !p.id().equals(nodeId) && mayStreamTo(p)).toList();
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

    /** Whether the daemon may send to {@code peer}; a refusal is counted and logged (rate-limited). */
    private boolean mayStreamTo(PeerAddress peer) {
        InetAddress address;
        try {
            address = InetAddress.getByName(peer.host());
        } catch (UnknownHostException e) {
            return true; // the daemon resolves it again, and leaves it out with a warning while it does not resolve
        }
        String refusal = PeerDestinations.refusal(address, adminOnLoopback);
        if (refusal == null) {
            return true;
        }
        long n = peersRefused.incrementAndGet();
        if (refusedPeerLog.allow()) {
            LOG.warn("peer {} from FJM2-Admin left out: {} ({}) is {}; {} refused so far, {} not logged since the last "
                    + "line", peer.id(), peer.host(), address.getHostAddress(), refusal, n,
                    refusedPeerLog.takeSuppressed());
        }
        return false;
    }

    /**
     * Drops the admin's peers when nothing confirmed them for {@link Options#peerExpiry()}; the next successful list
     * read (the entity tag is forgotten, so it is a full one) brings them back.
     */
    private void expireUnconfirmedPeers() {
        if (closed || delivered == null || delivered.isEmpty()) {
            return;
        }
        long silentNanos = System.nanoTime() - confirmedAtNanos;
        if (silentNanos < options.peerExpiry().toNanos()) {
            return;
        }
        LOG.warn("FJM2-Admin has not confirmed the peer list for {} s (no list read, no advertisement of it): "
                + "dropping its {} peer(s) until it answers again", TimeUnit.NANOSECONDS.toSeconds(silentNanos),
                delivered.size());
        delivered = List.of();
        etag = null;
        fetchedStamp = Long.MIN_VALUE;
        try {
            onPeers.accept(delivered);
        } catch (RuntimeException e) {
            LOG.error("the peer list consumer failed", e);
        }
    }

    /** Peers of the admin's list left out because of their address (multicast, broadcast, unspecified, loopback). */
    public long peersRefused() {
        return peersRefused.get();
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
