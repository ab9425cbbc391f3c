package org.fjm2.tunnel.relay;

import io.netty.util.collection.LongObjectHashMap;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The relay's peers, listed (static or from FJM2-Admin) and learned, found by wire id or by listed address. Learned
 * peers are capped. Event loop only, except {@link #view()}.
 */
final class PeerTable {

    /** Most learned (unlisted) peers at once; more are refused as unknown. */
    static final int MAX_LEARNED = 256;

    private final List<Peer> peers = new ArrayList<>();
    private final LongObjectHashMap<Peer> byId = new LongObjectHashMap<>();
    private volatile List<Peer> view = List.of();

    /** A snapshot, readable from any thread. */
    List<Peer> view() {
        return view;
    }

    List<Peer> all() {
        return peers;
    }

    int size() {
        return peers.size();
    }

    Peer get(int i) {
        return peers.get(i);
    }

    /** The peer known by this wire id, or null. */
    Peer byId(long id) {
        return id == 0 ? null : byId.get(id);
    }

    /** The peer at this address, a listed one first (a learned one not bound yet is found here too), or null. */
    Peer at(InetSocketAddress address) {
        Peer learned = null;
        for (Peer p : peers) {
            if (p.address().equals(address)) {
                if (p.listed()) {
                    return p;
                }
                learned = p;
            }
        }
        return learned;
    }

    /** The listed peer with this name, or null. */
    Peer listedNamed(String name) {
        for (Peer p : peers) {
            if (p.listed() && p.name().equals(name)) {
                return p;
            }
        }
        return null;
    }

    /** The peer whose hello {@code echo} answers at {@code from}, or null. */
    Peer answeredBy(long echo, InetSocketAddress from) {
        for (Peer p : peers) {
            if (p.answers(echo, from)) {
                return p;
            }
        }
        return null;
    }

    boolean roomToLearn() {
        int learned = 0;
        for (Peer p : peers) {
            if (!p.listed()) {
                learned++;
            }
        }
        return learned < MAX_LEARNED;
    }

    void add(Peer p) {
        peers.add(p);
        reindex();
    }

    /** Replaces the table's peers with {@code keep}. */
    void replace(List<Peer> keep) {
        peers.clear();
        peers.addAll(keep);
        reindex();
    }

    void remove(int i) {
        peers.remove(i);
    }

    /** Gives {@code p} the wire id {@code id}; the id's former holder (a second entry for the same daemon) keeps none. */
    void bind(Peer p, long id) {
        Peer other = byId.get(id);
        if (other != null && other != p) {
            other.id(0);
        }
        p.id(id);
        reindex();
    }

    void reindex() {
        byId.clear();
        for (Peer p : peers) {
            if (p.id() != 0) {
                byId.put(p.id(), p);
            }
        }
        view = List.copyOf(peers);
    }
}
