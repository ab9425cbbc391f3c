package org.fjm2.tunnel.relay;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.collection.IntObjectHashMap;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import org.fjm2.norm.codec.FeedbackFlyweight;
import org.fjm2.norm.codec.NormFlyweight;
import org.fjm2.norm.codec.NormPacketValidator;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.ObjectMessageFlyweight;
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
 *   <li>every datagram to a peer is a {@link FrameCodec} frame, paced by the peer's {@link WanPacer}; every datagram
 *       from a peer is authenticated and checked against replay before it is believed.</li>
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
    private final long peerTimeoutNanos;
    private final RelayCounters counters = new RelayCounters();
    private final IntObjectHashMap<Object> senderSide = new IntObjectHashMap<>();
    private final List<Peer> peers = new ArrayList<>();
    private final IntObjectHashMap<Peer> peersByTag = new IntObjectHashMap<>();
    private final Map<InetSocketAddress, Peer> peersByAddress = new HashMap<>();
    private volatile List<Peer> peersView = List.of();
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
        this.codec = new FrameCodec(settings.key(), FrameCodec.tagOf(settings.nodeId()), settings.seal(),
                FrameCodec.initialCounter());
        this.replay = new ReplayProtection(settings.maxClockSkewSeconds());
        this.filter = new RecentPacketFilter(settings.filterCapacity());
        this.hashSeed = hashSeed;
        this.cache = settings.hopByHop()
                ? new RepairCache(alloc, settings.repairCacheBytes(), settings.repairCacheEntries()) : null;
        this.holdoffNanos = settings.repairHoldoff().toNanos();
        this.keepaliveNanos = settings.keepalive().toNanos();
        this.peerTimeoutNanos = settings.peerTimeout().toNanos();
    }

    /** A seed for {@link #Relay}'s hash from a fresh random source. */
    public static long randomSeed() {
        return new SplittableRandom().nextLong();
    }

    Output output() {
        return output;
    }

    public RelayCounters counters() {
        return counters;
    }

    /** The current peers (a snapshot, readable from any thread). */
    public List<Peer> peers() {
        return peersView;
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
     * peers that go lose their queued frames; learned peers are kept.
     */
    public void setPeers(List<PeerSpec> specs, long nowNanos) {
        now = nowNanos;
        List<Peer> keep = new ArrayList<>();
        for (PeerSpec spec : specs) {
            Peer existing = findListed(spec);
            if (existing == null) {
                int tag = spec.id() != null ? FrameCodec.tagOf(spec.id()) : 0;
                existing = new Peer(spec.name(), true, spec.address(), tag,
                        new WanPacer(settings.peerRate(), settings.peerBurstBytes(), settings.peerQueueBytes()), this);
                existing.lastSentNanos = now - keepaliveNanos;  // greet it at once
                LOG.info("peer {} added", existing);
            }
            keep.add(existing);
        }
        for (Peer p : peers) {
            if (!p.listed()) {
                keep.add(p);
            } else if (!keep.contains(p)) {
                int dropped = p.pacer().clear();
                LOG.info("peer {} removed ({} queued frames dropped)", p, dropped);
            }
        }
        peers.clear();
        peers.addAll(keep);
        reindex();
    }

    private Peer findListed(PeerSpec spec) {
        for (Peer p : peers) {
            if (p.listed() && p.name().equals(spec.name())) {
                if (!p.address().equals(spec.address())) {
                    p.address(spec.address());
                }
                return p;
            }
        }
        return null;
    }

    private void reindex() {
        peersByTag.clear();
        peersByAddress.clear();
        for (Peer p : peers) {
            if (p.tag() != 0) {
                peersByTag.put(p.tag(), p);
            }
            peersByAddress.put(p.address(), p);
        }
        peersView = List.copyOf(peers);
    }

    /** The peer an authentic frame with this sender tag came from, learning tags, moves and (if allowed) peers. */
    private Peer resolvePeer(int tag, InetSocketAddress from) {
        Peer p = peersByTag.get(tag);
        if (p == null) {
            p = peersByAddress.get(from);
            if (p != null) {
                if (p.tag() != 0 && p.tag() != tag) {
                    LOG.info("peer {} now sends with another tag (restarted with another node id?)", p);
                }
                p.tag(tag);
                reindex();
            } else if (settings.acceptUnlisted()) {
                p = new Peer(from.getAddress().getHostAddress() + ":" + from.getPort(), false, from, tag,
                        new WanPacer(settings.peerRate(), settings.peerBurstBytes(), settings.peerQueueBytes()), this);
                p.lastSentNanos = now;
                peers.add(p);
                reindex();
                LOG.info("learned unlisted peer {} (authentic traffic, accept-unlisted is on)", p);
            } else {
                return null;
            }
        }
        if (!p.address().equals(from)) {
            LOG.info("peer {} is now at {} (NAT mapping or move)", p, from);
            p.address(from);
            reindex();
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
            counters.increment(Counter.MALFORMED);
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
                rejected(Counter.AUTH_TRUNCATED, from);
                return;
            case BAD_VERSION:
                rejected(Counter.AUTH_BAD_VERSION, from);
                return;
            default:
                rejected(Counter.AUTH_BAD_MAC, from);
                return;
        }
        ReplayProtection.Result fresh = replay.check(codec.sender(), codec.counter(), codec.timestamp(),
                System.currentTimeMillis());
        if (fresh != ReplayProtection.Result.FRESH) {
            rejected(fresh == ReplayProtection.Result.STALE ? Counter.REPLAY_STALE : Counter.REPLAY_SEEN, from);
            return;
        }
        Peer peer = resolvePeer(codec.sender(), from);
        if (peer == null) {
            rejected(Counter.UNKNOWN_PEER, from);
            return;
        }
        peer.heard(nowNanos);
        peer.counters().increment(PeerCounters.Counter.PACKETS_IN);
        peer.counters().add(PeerCounters.Counter.BYTES_IN, datagram.readableBytes());
        if (codec.type() == FrameCodec.TYPE_KEEPALIVE) {
            peer.counters().increment(PeerCounters.Counter.KEEPALIVES_IN);
            return;
        }
        if (codec.type() != FrameCodec.TYPE_NORM) {
            counters.increment(Counter.MALFORMED);
            return;
        }
        ByteBuf message = codec.openPayload(alloc);
        if (message == null) {
            rejected(Counter.AUTH_BAD_SEAL, from);
            return;
        }
        try {
            onNormFromPeer(message, peer);
        } finally {
            message.release();
        }
    }

    private void onNormFromPeer(ByteBuf message, Peer peer) {
        int index = message.readerIndex();
        int length = message.readableBytes();
        if (NormPacketValidator.validate(message, index, length) != null) {
            counters.increment(Counter.MALFORMED);
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

    private void rejected(Counter reason, InetSocketAddress from) {
        counters.increment(reason);
        long n = counters.get(reason);
        if (Long.bitCount(n) == 1) {
            LOG.warn("dropped tunnel datagram from {}: {} ({} so far; logged at powers of two)", from,
                    reason.name().toLowerCase(), n);
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

    void sendError(String where) {
        counters.increment(Counter.SEND_ERRORS);
        long n = counters.get(Counter.SEND_ERRORS);
        if (Long.bitCount(n) == 1) {
            LOG.warn("{} socket full: datagram dropped; {} so far (logged at powers of two)", where, n);
        }
    }

    private void forwardToPeers(ByteBuf message, int index, int length, Peer except, boolean urgent, int flags) {
        if (peers.isEmpty() || (peers.size() == 1 && peers.get(0) == except) || oversize(length)) {
            return;
        }
        ByteBuf frame = codec.encode(alloc, FrameCodec.TYPE_NORM, flags, message, index, length);
        try {
            for (int i = 0; i < peers.size(); i++) {
                Peer p = peers.get(i);
                if (p != except) {
                    enqueue(p, frame.retainedDuplicate(), urgent);
                }
            }
        } finally {
            frame.release();
        }
    }

    private void sendTo(Peer p, ByteBuf message, int index, int length, boolean urgent, int flags) {
        if (oversize(length)) {
            return;
        }
        enqueue(p, codec.encode(alloc, FrameCodec.TYPE_NORM, flags, message, index, length), urgent);
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
        } else {
            p.lastSentNanos = now;
        }
    }

    /**
     * Sends what the pacers allow now, greets peers that need a keepalive and forgets silent learned peers. Returns
     * when to call again.
     */
    public long pump(long nowNanos) {
        now = nowNanos;
        long next = Long.MAX_VALUE;
        boolean changed = false;
        for (int i = 0; i < peers.size(); i++) {
            Peer p = peers.get(i);
            if (!p.listed() && nowNanos - p.lastHeardNanos > peerTimeoutNanos) {
                LOG.info("forgetting learned peer {}: silent for {} s", p, peerTimeoutNanos / 1_000_000_000L);
                p.pacer().clear();
                peers.remove(i--);
                changed = true;
                continue;
            }
            if (nowNanos - p.lastSentNanos >= keepaliveNanos) {
                enqueue(p, codec.encode(alloc, FrameCodec.TYPE_KEEPALIVE, 0, null, 0, 0), true);
                p.counters().increment(PeerCounters.Counter.KEEPALIVES_OUT);
            }
            next = Math.min(next, p.pacer().drain(nowNanos, p.sink));
            next = Math.min(next, p.lastSentNanos + keepaliveNanos);
        }
        if (changed) {
            reindex();
        }
        return next;
    }

    /** Releases every queued frame and the repair cache. */
    @Override
    public void close() {
        for (Peer p : peers) {
            p.pacer().clear();
        }
        if (cache != null) {
            cache.close();
        }
    }
}
