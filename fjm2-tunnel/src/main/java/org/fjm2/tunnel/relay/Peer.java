package org.fjm2.tunnel.relay;

import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;

/**
 * Another FJM2D daemon: where to send, its wire id once known, whether it answers, its pacer and its counters. Owned
 * by the relay's event loop.
 *
 * <p>A peer gets data only after it answered a hello: its HELLO_REPLY echoed the challenge we sent to its address.
 * That answer is also the only thing that binds a wire id to a listed address and the only thing that moves a peer
 * to a new address (the challenge went there), so a frame replayed from elsewhere redirects nothing. A peer not heard
 * for the peer silence gets no more data until it answers again.
 */
public final class Peer {

    /** What a peer is doing, as the status line shows it. */
    public enum State {
        /** Listed or learned, not answered yet: hellos go to it, data does not. */
        WAITING,
        /** Answered a hello and heard lately: gets data. */
        ANSWERING,
        /** Answered once, then silent for the peer silence: no data until it answers again. */
        SILENT
    }

    private final String name;
    private final boolean listed;
    private InetSocketAddress address;
    private long id;
    private final WanPacer pacer;
    private final PeerCounters counters = new PeerCounters();
    final WanPacer.Sink sink;
    final long addedNanos;
    long lastHeardNanos;
    long lastHelloNanos = Long.MIN_VALUE / 2;
    long lastChallengeElsewhereNanos = Long.MIN_VALUE / 2;
    private volatile State state = State.WAITING;
    private volatile long lastHeardMillis;
    boolean silenceReported;

    /**
     * Challenges of the last hellos still answerable, and where each went: an answer may cross newer hellos (hellos
     * go every second while a busy peer may take longer to answer).
     */
    static final int CHALLENGES_KEPT = 4;
    private final long[] challenges = new long[CHALLENGES_KEPT];
    private final InetSocketAddress[] challengedAt = new InetSocketAddress[CHALLENGES_KEPT];
    private int nextChallenge;

    Peer(String name, boolean listed, InetSocketAddress address, long id, WanPacer pacer, Relay relay, long nowNanos) {
        this.name = name;
        this.listed = listed;
        this.address = address;
        this.id = id;
        this.pacer = pacer;
        this.addedNanos = nowNanos;
        this.lastHeardNanos = nowNanos;
        this.sink = frame -> relay.sendFrame(this, frame, this.address);
    }

    /** The peer's name: its node id in FJM2-Admin, or host:port for a static or learned peer. */
    public String name() {
        return name;
    }

    /** Whether the peer was configured (statically or by the admin), not learned from its traffic. */
    public boolean listed() {
        return listed;
    }

    public InetSocketAddress address() {
        return address;
    }

    void address(InetSocketAddress address) {
        this.address = address;
    }

    /** The wire id its frames carry; 0 until it answered a hello (or the admin named it). */
    public long id() {
        return id;
    }

    void id(long id) {
        this.id = id;
    }

    public State state() {
        return state;
    }

    /** Whether data may go to the peer now: it answered, and was heard within {@code silenceNanos}. */
    boolean takesData(long nowNanos, long silenceNanos) {
        return state == State.ANSWERING && nowNanos - lastHeardNanos <= silenceNanos;
    }

    WanPacer pacer() {
        return pacer;
    }

    public PeerCounters counters() {
        return counters;
    }

    /** Wall-clock time of the last authentic datagram from the peer's address (0: never). */
    public long lastHeardMillis() {
        return lastHeardMillis;
    }

    void heard(long nowNanos) {
        lastHeardNanos = nowNanos;
        lastHeardMillis = System.currentTimeMillis();
    }

    /** Remembers a challenge sent to {@code to}. */
    void challenged(long value, InetSocketAddress to) {
        challenges[nextChallenge] = value;
        challengedAt[nextChallenge] = to;
        nextChallenge = (nextChallenge + 1) % CHALLENGES_KEPT;
    }

    /** Whether {@code echo}, arriving from {@code from}, answers a challenge we sent to that address. */
    boolean answers(long echo, InetSocketAddress from) {
        for (int i = 0; i < CHALLENGES_KEPT; i++) {
            if (challengedAt[i] != null && challenges[i] == echo && from.equals(challengedAt[i])) {
                return true;
            }
        }
        return false;
    }

    /** The peer answered at {@code at}: it gets data there. Returns whether it was not answering before. */
    boolean answered(InetSocketAddress at, long nowNanos) {
        boolean news = state != State.ANSWERING;
        address = at;
        java.util.Arrays.fill(challengedAt, null);
        state = State.ANSWERING;
        silenceReported = false;
        heard(nowNanos);
        return news;
    }

    /** The peer fell silent: no data until it answers again. */
    void silenced() {
        state = State.SILENT;
    }

    /** Queued bytes waiting for the pacer (event loop only; approximate elsewhere). */
    public long queuedBytes() {
        return pacer.queuedBytes();
    }

    boolean offer(ByteBuf frame, boolean urgent) {
        return pacer.offer(frame, urgent);
    }

    @Override
    public String toString() {
        String at = (address.isUnresolved() ? address.getHostString() : address.getAddress().getHostAddress()) + ":"
                + address.getPort();
        return name.equals(at) ? at : name + "@" + at;
    }
}
