package org.fjm2.tunnel.relay;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.collection.IntObjectHashMap;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import org.fjm2.norm.codec.FeedbackFlyweight;
import org.fjm2.norm.codec.NormFlyweight;
import org.fjm2.norm.codec.NormPacketValidator;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.ObjectMessageFlyweight;
import org.fjm2.norm.util.LogLimiter;
import org.fjm2.tunnel.relay.RelayCounters.Counter;
import org.fjm2.tunnel.repair.NackResponder;
import org.fjm2.tunnel.repair.RepairCache;
import org.fjm2.tunnel.security.FrameCodec;
import org.fjm2.tunnel.security.ReplayProtection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The forwarding logic of FJM2D, apart from sockets and timers (which {@link org.fjm2.tunnel.TunnelDaemon} owns):
 *
 * <ul>
 *   <li>a NORM packet heard on the LAN goes to every peer; one from a peer is re-emitted on the LAN (and, with
 *       transit on, to the other peers, never back to where it came from);</li>
 *   <li>every packet's content hash goes through a {@link RecentPacketFilter}: what was already handled (a loop, a
 *       second path, our own re-emission) is dropped;</li>
 *   <li>feedback (NACK, ACK) travels towards the sender it names, learned from where that sender's packets come
 *       from; with hop-by-hop repair on, NACKs are first answered from the {@link RepairCache};</li>
 *   <li>every datagram to a peer is a {@link FrameCodec} frame addressed to it, paced by the peer's
 *       {@link WanPacer}; every datagram from a peer is authenticated, checked for its destination (us) and against
 *       replay before it is believed; what fails is counted by reason, logged (rate-limited) and never relayed;</li>
 *   <li>a peer gets data only after it answered a hello (see {@link Peer}), and no more once it fell silent.</li>
 * </ul>
 *
 * Everything runs on one thread (the daemon's event loop); nothing here locks. Buffers handed to
 * {@link Output} belong to it; buffers handed in are not released here.
 */
public final class Relay implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Relay.class);

    /** The side of packets heard on the LAN (a peer is the side of packets it sent). */
    private static final Object LAN = new Object() {
        @Override
        public String toString() {
            return "LAN";
        }
    };
    /** Largest UDP payload over IPv4: a frame must fit in one datagram. */
    static final int MAX_UDP_PAYLOAD = 65_507;
    /** Senders remembered with their side; past this the table starts over (senders are re-learned at once). */
    static final int MAX_SENDERS = 65536;
    /** No two challenges to the same address of a peer within this (the periodic hellos aside). */
    static final long CHALLENGE_HOLDOFF_NANOS = 100_000_000L;
    /** At most one log line per reason of refusal in this interval (the rest are counted and summed up). */
    static final long REFUSAL_LOG_INTERVAL_NANOS = 10_000_000_000L;

    /** Where the relay's packets go. */
    public interface Output {
        /** Multicasts a NORM message on the LAN; takes ownership of the buffer. False: dropped (socket full). */
        boolean emitOnLan(ByteBuf message);

        /** Sends a frame to a peer; takes ownership of the buffer. False: dropped (socket full). */
        boolean sendToPeer(ByteBuf frame, InetSocketAddress to);
    }

    /** Takes datagrams on the WAN port that are no tunnel frames (FJM2-Admin's advertisements). */
    public interface ForeignDatagrams {
        boolean offer(ByteBuf datagram);
    }

    /** A listed peer: its admin node id (null for a static peer) and its address. */
    public record PeerSpec(String id, InetSocketAddress address) {
        public String name() {
            return id != null ? id : address.getHostString() + ":" + address.getPort();
        }
    }

    private final RelaySettings settings;
    private final ByteBufAllocator alloc;
    private final Output output;
    private final Predicate<InetSocketAddress> ownEmission;
    private final FrameCodec codec;
    private final ReplayProtection replay;
    private final RecentPacketFilter filter;
    private final long hashSeed;
    private final RepairCache cache;
    private final NackResponder responder = new NackResponder();
    private final long holdoffNanos;
    private final long keepaliveNanos;
    private final long helloRetryNanos;
    private final long silenceNanos;
    private final long peerTimeoutNanos;
    private final long ownId;
    private final SplittableRandom challenges = new SplittableRandom(new SecureRandom().nextLong());
    private final RelayCounters counters = new RelayCounters();
    private final Map<Counter, LogLimiter> refusalLogs = new EnumMap<>(Counter.class);
    private final IntObjectHashMap<Object> senderSide = new IntObjectHashMap<>();
    private final PeerTable peers = new PeerTable();
    private volatile String clashWith;
    private final FeedbackFlyweight feedback = new FeedbackFlyweight();
    private final ObjectMessageFlyweight objectMessage = new ObjectMessageFlyweight();
    private final NackResponder.Server server = this::serve;
    private ForeignDatagrams foreign;
    private Object servingTo;
    private long now;

    /**
     * @param ownEmission recognises the source address of our own LAN emissions, heard back through loopback
     * @param hashSeed seed of the duplicate filter's hash (random in production, fixed in tests)
     */
    public Relay(RelaySettings settings, ByteBufAllocator alloc, Output output, Predicate<InetSocketAddress> ownEmission,
                 long hashSeed) {
        this.settings = settings;
        this.alloc = alloc;
        this.output = output;
        this.ownEmission = ownEmission;
        this.ownId = FrameCodec.wireId(settings.nodeId());
        this.codec = new FrameCodec(settings.key(), ownId, settings.seal(), FrameCodec.initialCounter());
        this.replay = new ReplayProtection(settings.maxClockSkewSeconds());
        this.filter = new RecentPacketFilter(settings.filterCapacity());
        this.hashSeed = hashSeed;
        this.cache = settings.hopByHop()
                ? new RepairCache(alloc, settings.repairCacheBytes(), settings.repairCacheEntries()) : null;
        this.holdoffNanos = settings.repairHoldoff().toNanos();
        this.keepaliveNanos = settings.keepalive().toNanos();
        this.helloRetryNanos = settings.helloRetry().toNanos();
        this.silenceNanos = settings.peerSilence().toNanos();
        this.peerTimeoutNanos = settings.peerTimeout().toNanos();
        for (Counter c : RelayCounters.REFUSALS) {
            refusalLogs.put(c, new LogLimiter(REFUSAL_LOG_INTERVAL_NANOS));
        }
        refusalLogs.put(Counter.MALFORMED, new LogLimiter(REFUSAL_LOG_INTERVAL_NANOS));
    }

    /** A seed for {@link #Relay}'s hash from a fresh random source. */
    public static long randomSeed() {
        return new SplittableRandom().nextLong();
    }

    public RelayCounters counters() {
        return counters;
    }

    /** The current peers (a snapshot, readable from any thread). */
    public List<Peer> peers() {
        return peers.view();
    }

    /** This daemon's wire id (what its frames carry as sender). */
    public long ownId() {
        return ownId;
    }

    /**
     * The address of the last authentic frame that claimed this daemon's own node id (another daemon with the same
     * id), or null: readable from any thread.
     */
    public String nodeIdClashWith() {
        return clashWith;
    }

    /** Where to hand datagrams on the WAN port that are no tunnel frames. */
    public void foreignDatagrams(ForeignDatagrams sink) {
        this.foreign = sink;
    }

    /** The repair cache, or null without hop-by-hop repair. */
    public RepairCache repairCache() {
        return cache;
    }

    // ---- peers -----------------------------------------------------------------------------------------------------

    /**
     * Replaces the listed peers (static and from the admin) with {@code specs}: peers that stay keep their state,
     * peers that go lose their queued frames; learned peers are kept. A new peer is greeted at the next {@link #pump}.
     */
    public void setPeers(List<PeerSpec> specs, long nowNanos) {
        now = nowNanos;
        List<Peer> keep = new ArrayList<>();
        for (PeerSpec spec : specs) {
            Peer existing = peers.listedNamed(spec.name());
            if (existing == null) {
                long id = spec.id() != null ? FrameCodec.wireId(spec.id()) : 0;
                existing = newPeer(spec.name(), true, spec.address(), id);
                LOG.info("peer {} added: greeting it; data flows once it answers", existing);
            } else if (!existing.address().equals(spec.address())) {
                existing.address(spec.address());     // the admin (or the operator) says so
            }
            keep.add(existing);
        }
        for (Peer p : peers.all()) {
            if (!p.listed()) {
                keep.add(p);
            } else if (!keep.contains(p)) {
                int dropped = p.pacer().clear();
                LOG.info("peer {} removed ({} queued frames dropped)", p, dropped);
            }
        }
        peers.replace(keep);
    }

    private Peer newPeer(String name, boolean listed, InetSocketAddress address, long id) {
        return new Peer(name, listed, address, id, new WanPacer(settings.peerRate(), settings.peerBurstBytes(),
                settings.peerQueueBytes()), this, now);
    }

    /**
     * The peer an authentic frame of {@code sender} from {@code from} belongs to: known by its id, else the peer at
     * that address (its id is bound only when it answers a hello), else, with unlisted peers accepted, a new learned
     * peer. Null: refuse it.
     */
    private Peer peerOf(long sender, InetSocketAddress from) {
        Peer p = peers.byId(sender);
        if (p == null) {
            p = peers.at(from);
        }
        if (p == null && settings.acceptUnlisted() && peers.roomToLearn()) {
            p = newPeer(from.getAddress().getHostAddress() + ":" + from.getPort(), false, from, 0);
            peers.add(p);
            LOG.info("learned unlisted peer {} (authentic traffic, accept-unlisted is on): greeting it", p);
        }
        return p;
    }

    // ---- LAN side --------------------------------------------------------------------------------------------------

    /** A datagram heard on the LAN (the group, or unicast feedback at our emitting port). */
    public void onLanDatagram(ByteBuf datagram, InetSocketAddress from, long nowNanos) {
        now = nowNanos;
        if (ownEmission.test(from)) {
            counters.increment(Counter.OWN_ECHOES);
            return;
        }
        int index = datagram.readerIndex();
        int length = datagram.readableBytes();
        counters.increment(Counter.LAN_PACKETS_IN);
        counters.add(Counter.LAN_BYTES_IN, length);
        if (NormPacketValidator.validate(datagram, index, length) != null) {
            refuse(Counter.MALFORMED, from);
            return;
        }
        if (!filter.firstSighting(PacketHash.hash(datagram, index, length, hashSeed))) {
            counters.increment(Counter.DUPLICATES);
            return;
        }
        int type = datagram.getUnsignedByte(index) & 0x0F;
        if (type == NormWire.TYPE_NACK || type == NormWire.TYPE_ACK) {
            routeFeedback(datagram, type, LAN);
            return;
        }
        learnSender(datagram, type, LAN);
        forwardToPeers(datagram, index, length, null, false, 0);
    }

    // ---- WAN side --------------------------------------------------------------------------------------------------

    /** A datagram that arrived on the WAN port. */
    public void onWanDatagram(ByteBuf datagram, InetSocketAddress from, long nowNanos) {
        now = nowNanos;
        FrameCodec.Verdict verdict = codec.decode(datagram);
        switch (verdict) {
            case VALID:
                break;
            case NOT_A_FRAME:
                if (foreign == null || !foreign.offer(datagram)) {
                    counters.increment(Counter.FOREIGN_DATAGRAMS);
                }
                return;
            case TRUNCATED:
                refuse(Counter.AUTH_TRUNCATED, from);
                return;
            case BAD_VERSION:
                refuse(Counter.AUTH_BAD_VERSION, from);
                return;
            default:
                refuse(Counter.AUTH_BAD_MAC, from);
                return;
        }
        long sender = codec.sender();
        int type = codec.type();
        if (sender == ownId) {
            nodeIdClash(from);
            return;
        }
        long destination = codec.destination();
        if (destination != ownId && !(destination == FrameCodec.NO_DESTINATION && type == FrameCodec.TYPE_HELLO)) {
            refuse(Counter.WRONG_DESTINATION, from);
            return;
        }
        ReplayProtection.Result fresh = replay.check(sender, codec.counter(), codec.timestamp(),
                System.currentTimeMillis());
        if (fresh != ReplayProtection.Result.FRESH) {
            refuse(fresh == ReplayProtection.Result.STALE ? Counter.REPLAY_STALE : Counter.REPLAY_SEEN, from);
            return;
        }
        if (type == FrameCodec.TYPE_HELLO_REPLY) {
            onReply(sender, from, datagram.readableBytes());
            return;
        }
        Peer peer = peerOf(sender, from);
        if (peer == null) {
            refuse(Counter.UNKNOWN_PEER, from);
            return;
        }
        if (type == FrameCodec.TYPE_HELLO) {
            onHello(peer, sender, from, datagram.readableBytes());
            return;
        }
        if (type != FrameCodec.TYPE_NORM) {
            refuse(Counter.BAD_CONTROL, from);
            return;
        }
        ByteBuf message = codec.openPayload(alloc);
        if (message == null) {
            refuse(Counter.AUTH_BAD_SEAL, from);
            return;
        }
        try {
            heardFrom(peer, from, datagram.readableBytes());
            onNormFromPeer(message, peer);
        } finally {
            message.release();
        }
    }

    /** Counts an authentic frame of {@code peer}; from another address than its own, that address is challenged. */
    private void heardFrom(Peer peer, InetSocketAddress from, int bytes) {
        peer.counters().increment(PeerCounters.Counter.PACKETS_IN);
        peer.counters().add(PeerCounters.Counter.BYTES_IN, bytes);
        if (from.equals(peer.address())) {
            peer.heard(now);
        } else if (now - peer.lastChallengeElsewhereNanos >= CHALLENGE_HOLDOFF_NANOS) {
            // NAT rebinding, a move, or a frame replayed from elsewhere: only an answer from there moves the peer.
            LOG.info("peer {}: authentic frame from {}; challenging that address before sending anything there",
                    peer, from);
            sendHello(peer, from);
        }
    }

    private void onHello(Peer peer, long sender, InetSocketAddress from, int bytes) {
        long challenge = challengeOf();
        if (challenge == Long.MIN_VALUE) {
            refuse(Counter.BAD_CONTROL, from);
            return;
        }
        peer.counters().increment(PeerCounters.Counter.HELLOS_IN);
        heardFrom(peer, from, bytes);
        // The answer goes where the hello came from: that is the address it proves.
        sendChallenge(peer, FrameCodec.TYPE_HELLO_REPLY, sender, challenge, from);
        peer.counters().increment(PeerCounters.Counter.REPLIES_OUT);
        boolean unproven = peer.state() != Peer.State.ANSWERING || peer.id() != sender;
        if (unproven && from.equals(peer.address()) && now - peer.lastHelloNanos >= CHALLENGE_HOLDOFF_NANOS) {
            sendHello(peer, from);      // greet back at once: data flows as soon as both sides have answered
        }
    }

    private void onReply(long sender, InetSocketAddress from, int bytes) {
        long echo = challengeOf();
        Peer peer = echo == Long.MIN_VALUE ? null : peers.answeredBy(echo, from);
        if (peer == null) {
            refuse(echo == Long.MIN_VALUE ? Counter.BAD_CONTROL : Counter.UNEXPECTED_REPLY, from);
            return;
        }
        if (peer.id() != sender) {
            if (peer.id() != 0) {
                LOG.info("peer {} now answers as another daemon (restarted with another node id?)", peer);
            }
            peers.bind(peer, sender);
        }
        InetSocketAddress was = peer.address();
        boolean news = peer.answered(from, now);
        if (!from.equals(was)) {
            LOG.info("peer {} moved from {} (it answered a challenge at its new address)", peer, was);
        }
        if (news) {
            LOG.info("peer {} answered: relaying to it", peer);
        }
        peer.counters().increment(PeerCounters.Counter.REPLIES_IN);
        peer.counters().increment(PeerCounters.Counter.PACKETS_IN);
        peer.counters().add(PeerCounters.Counter.BYTES_IN, bytes);
    }

    /** The challenge (or echo) a HELLO (or HELLO_REPLY) carries; {@link Long#MIN_VALUE} when it has none. */
    private long challengeOf() {
        ByteBuf payload = codec.openPayload(alloc);
        if (payload == null) {
            return Long.MIN_VALUE;
        }
        try {
            return payload.readableBytes() == FrameCodec.CHALLENGE_LENGTH ? payload.getLong(payload.readerIndex())
                    : Long.MIN_VALUE;
        } finally {
            payload.release();
        }
    }

    private void nodeIdClash(InetSocketAddress from) {
        counters.increment(Counter.NODE_ID_CLASH);
        clashWith = from.getAddress().getHostAddress() + ":" + from.getPort();
        LogLimiter log = refusalLogs.get(Counter.NODE_ID_CLASH);
        if (log.allow()) {
            LOG.warn("NODE ID CLASH: an authentic frame from {} claims this daemon's own node id '{}': another daemon "
                    + "uses the same id (the same --node-id twice, or a copied state file) and peers cannot tell the "
                    + "two apart; give each daemon its own --node-id or delete the copied state file. {} such frames "
                    + "refused so far ({} since the last line)", clashWith, settings.nodeId(),
                    counters.get(Counter.NODE_ID_CLASH), log.takeSuppressed());
        }
    }

    private void onNormFromPeer(ByteBuf message, Peer peer) {
        int index = message.readerIndex();
        int length = message.readableBytes();
        if (NormPacketValidator.validate(message, index, length) != null) {
            refuse(Counter.MALFORMED, peer);
            return;
        }
        if (!filter.firstSighting(PacketHash.hash(message, index, length, hashSeed))) {
            counters.increment(Counter.DUPLICATES);
            return;
        }
        int type = message.getUnsignedByte(index) & 0x0F;
        if (type == NormWire.TYPE_NACK || type == NormWire.TYPE_ACK) {
            routeFeedback(message, type, peer);
            return;
        }
        learnSender(message, type, peer);
        emitOnLan(message, index, length);
        if (settings.transit()) {
            forwardToPeers(message, index, length, peer, false, 0);
        }
    }

    /** Counts a refused datagram by its reason and logs it, at most one line per reason per interval. */
    private void refuse(Counter reason, Object from) {
        counters.increment(reason);
        LogLimiter log = refusalLogs.get(reason);
        if (log.allow()) {
            LOG.warn("refused a tunnel datagram from {}: {} ({} so far; {} more since the last line)", from,
                    reason.name().toLowerCase(Locale.ROOT), counters.get(reason), log.takeSuppressed());
        }
    }

    // ---- sender messages -------------------------------------------------------------------------------------------

    private void learnSender(ByteBuf message, int type, Object side) {
        int sourceId = message.getInt(message.readerIndex() + NormFlyweight.SOURCE_ID_OFFSET);
        if (senderSide.get(sourceId) != side) {
            if (senderSide.size() >= MAX_SENDERS) {
                senderSide.clear();
            }
            senderSide.put(sourceId, side);
        }
        if (cache != null && (type == NormWire.TYPE_DATA || type == NormWire.TYPE_INFO)) {
            cache.put(objectMessage.wrap(message));
        }
    }

    // ---- feedback --------------------------------------------------------------------------------------------------

    private void routeFeedback(ByteBuf message, int type, Object from) {
        feedback.wrap(message);
        Object senderAt = senderSide.get(feedback.serverId());
        if (senderAt == from) {
            counters.increment(Counter.FEEDBACK_LOCAL);
            return;
        }
        ByteBuf forward = message;
        boolean rewritten = false;
        if (cache != null && senderAt != null && type == NormWire.TYPE_NACK) {
            servingTo = from;
            NackResponder.Outcome outcome = responder.answer(feedback, cache, from, now, holdoffNanos, alloc, server);
            servingTo = null;
            if (outcome == NackResponder.Outcome.ANSWERED) {
                counters.increment(Counter.NACKS_ANSWERED);
                return;
            }
            if (outcome == NackResponder.Outcome.REWRITTEN) {
                counters.increment(Counter.NACKS_REWRITTEN);
                forward = responder.rewritten();
                rewritten = true;
            }
        }
        try {
            int index = forward.readerIndex();
            int length = forward.readableBytes();
            if (senderAt == LAN) {
                emitOnLan(forward, index, length);
            } else if (senderAt instanceof Peer p) {
                if (from == LAN || settings.transit()) {
                    sendTo(p, forward, index, length, true, 0);
                } else {
                    counters.increment(Counter.FEEDBACK_UNROUTABLE);
                }
            } else if (from == LAN) {
                forwardToPeers(forward, index, length, null, true, 0);     // sender not heard yet: ask everyone
            } else {
                emitOnLan(forward, index, length);
                if (settings.transit()) {
                    forwardToPeers(forward, index, length, (Peer) from, true, 0);
                }
            }
        } finally {
            if (rewritten) {
                forward.release();
            }
        }
    }

    /** Sends a cached message towards {@link #servingTo}, the side whose NACK asked for it. */
    private void serve(RepairCache.Entry entry) {
        ByteBuf m = cache.buffer();
        int offset = RepairCache.offset(entry);
        int length = RepairCache.length(entry);
        counters.increment(Counter.REPAIRS_SERVED);
        if (servingTo == LAN) {
            emitOnLan(m, offset, length);
        } else {
            Peer p = (Peer) servingTo;
            p.counters().increment(PeerCounters.Counter.REPAIRS_SERVED);
            sendTo(p, m, offset, length, true, FrameCodec.FLAG_CACHE_REPAIR);
        }
    }

    // ---- output ----------------------------------------------------------------------------------------------------

    private void emitOnLan(ByteBuf message, int index, int length) {
        counters.increment(Counter.LAN_PACKETS_OUT);
        counters.add(Counter.LAN_BYTES_OUT, length);
        if (!output.emitOnLan(alloc.directBuffer(length).writeBytes(message, index, length))) {
            sendError("LAN");
        }
    }

    /**
     * Whether a NORM message is too large for one tunnel frame (then counted, and logged at powers of two): fjm2
     * senders never send one (their largest segment leaves room), other NORM implementations may.
     */
    private boolean oversize(int length) {
        if (codec.frameLength(length) <= MAX_UDP_PAYLOAD) {
            return false;
        }
        counters.increment(Counter.OVERSIZE);
        long n = counters.get(Counter.OVERSIZE);
        if (Long.bitCount(n) == 1) {
            LOG.warn("NORM packet of {} bytes does not fit a tunnel frame in one UDP datagram: dropped; {} so far "
                    + "(a sender on the LAN uses segments of more than {} bytes; logged at powers of two)", length, n,
                    MAX_UDP_PAYLOAD - codec.frameLength(0) - FrameCodec.GCM_TAG_LENGTH - 64);
        }
        return true;
    }

    /** Sends a frame to {@code to} at once (paced frames come here when their time has come). */
    void sendFrame(Peer p, ByteBuf frame, InetSocketAddress to) {
        p.counters().increment(PeerCounters.Counter.PACKETS_OUT);
        p.counters().add(PeerCounters.Counter.BYTES_OUT, frame.readableBytes());
        if (!output.sendToPeer(frame, to)) {
            sendError(p.name());
        }
    }

    void sendError(String where) {
        counters.increment(Counter.SEND_ERRORS);
        long n = counters.get(Counter.SEND_ERRORS);
        if (Long.bitCount(n) == 1) {
            LOG.warn("{} socket full: datagram dropped; {} so far (logged at powers of two)", where, n);
        }
    }

    /** Frames a NORM message to every answering peer but {@code except}: each frame names its destination. */
    private void forwardToPeers(ByteBuf message, int index, int length, Peer except, boolean urgent, int flags) {
        if (oversize(length)) {
            return;
        }
        for (int i = 0; i < peers.size(); i++) {
            Peer p = peers.get(i);
            if (p != except) {
                sendTo(p, message, index, length, urgent, flags);
            }
        }
    }

    private void sendTo(Peer p, ByteBuf message, int index, int length, boolean urgent, int flags) {
        if (!p.takesData(now, silenceNanos)) {
            p.counters().increment(PeerCounters.Counter.WITHHELD);
            return;
        }
        if (oversize(length)) {
            return;
        }
        enqueue(p, codec.encode(alloc, FrameCodec.TYPE_NORM, flags, p.id(), message, index, length), urgent);
    }

    private void enqueue(Peer p, ByteBuf frame, boolean urgent) {
        if (!p.offer(frame, urgent)) {
            frame.release();
            p.counters().increment(PeerCounters.Counter.QUEUE_DROPS);
            long n = p.counters().get(PeerCounters.Counter.QUEUE_DROPS);
            if (Long.bitCount(n) == 1) {
                LOG.warn("peer {}: pacing queue full ({} bytes at {} bit/s), frame dropped; {} so far "
                        + "(NORM repair recovers them; logged at powers of two)", p, settings.peerQueueBytes(),
                        settings.peerRate(), n);
            }
        }
    }

    /**
     * Sends what the pacers allow now, greets peers whose hello is due, stops sending to peers that fell silent and
     * forgets silent learned peers. Returns when to call again.
     */
    public long pump(long nowNanos) {
        now = nowNanos;
        long next = Long.MAX_VALUE;
        boolean changed = false;
        for (int i = 0; i < peers.size(); i++) {
            Peer p = peers.get(i);
            long quiet = nowNanos - p.lastHeardNanos;
            if (!p.listed() && quiet > peerTimeoutNanos) {
                LOG.info("forgetting learned peer {}: silent for {} s", p, peerTimeoutNanos / 1_000_000_000L);
                p.pacer().clear();
                peers.remove(i--);
                changed = true;
                continue;
            }
            if (quiet > silenceNanos) {
                silence(p);
            }
            long interval = helloInterval(p, quiet);
            if (nowNanos - p.lastHelloNanos >= interval) {
                sendHello(p, p.address());
            }
            next = Math.min(next, p.pacer().drain(nowNanos, p.sink));
            next = Math.min(next, p.lastHelloNanos + interval);
            if (p.state() == Peer.State.ANSWERING) {
                next = Math.min(next, p.lastHeardNanos + silenceNanos + 1);
            }
        }
        if (changed) {
            peers.reindex();
        }
        return next;
    }

    /**
     * Hellos every keepalive period to a peer that answers and was heard lately, and to one that has been quiet for
     * longer than the silence (a slow probe); every hello-retry period in between, so that a first answer, or one
     * after a lost hello, comes soon.
     */
    private long helloInterval(Peer p, long quiet) {
        boolean answering = p.state() == Peer.State.ANSWERING && quiet <= keepaliveNanos;
        return answering || quiet > silenceNanos ? keepaliveNanos : helloRetryNanos;
    }

    private void silence(Peer p) {
        if (p.state() == Peer.State.ANSWERING) {
            p.silenced();
            int dropped = p.pacer().clear();
            LOG.warn("peer {} silent for {} ms: no more data to it until it answers again ({} queued frames "
                    + "dropped); probing every {} ms", p, silenceNanos / 1_000_000, dropped, keepaliveNanos / 1_000_000);
            p.silenceReported = true;
        } else if (!p.silenceReported) {
            LOG.warn("peer {} has not answered for {} ms: nothing is sent to it but hellos, every {} ms (wrong address, "
                    + "wrong key, or the daemon is down?)", p, silenceNanos / 1_000_000, keepaliveNanos / 1_000_000);
            p.silenceReported = true;
        }
    }

    /** A hello with a fresh challenge to {@code to}: the peer's answer from there proves it is there. */
    private void sendHello(Peer p, InetSocketAddress to) {
        long challenge = challenges.nextLong();
        p.challenged(challenge, to);
        if (to.equals(p.address())) {
            p.lastHelloNanos = now;
        } else {
            p.lastChallengeElsewhereNanos = now;
        }
        long destination = p.state() == Peer.State.ANSWERING ? p.id() : FrameCodec.NO_DESTINATION;
        sendChallenge(p, FrameCodec.TYPE_HELLO, destination, challenge, to);
        p.counters().increment(PeerCounters.Counter.HELLOS_OUT);
    }

    /** A hello or its answer: a frame of {@code type} whose payload is {@code challenge}, to {@code to}. */
    private void sendChallenge(Peer p, int type, long destination, long challenge, InetSocketAddress to) {
        ByteBuf payload = alloc.heapBuffer(FrameCodec.CHALLENGE_LENGTH).writeLong(challenge);
        try {
            sendFrame(p, codec.encode(alloc, type, 0, destination, payload, 0, FrameCodec.CHALLENGE_LENGTH), to);
        } finally {
            payload.release();
        }
    }

    /** Releases every queued frame and the repair cache. */
    @Override
    public void close() {
        for (Peer p : peers.all()) {
            p.pacer().clear();
        }
        if (cache != null) {
            cache.close();
        }
    }
}
