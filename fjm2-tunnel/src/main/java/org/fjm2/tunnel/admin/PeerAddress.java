package org.fjm2.tunnel.admin;

import java.net.InetSocketAddress;

/**
 * Another FJM2D node, as FJM2-Admin lists it: where its tunnel's UDP port is.
 *
 * @param id the node's id in the registry
 * @param host its host name or IP literal
 * @param port its tunnel's UDP port
 */
public record PeerAddress(String id, String host, int port) {

    /** An unresolved socket address: the tunnel resolves it when (and as often as) it needs to. */
    public InetSocketAddress socketAddress() {
        return InetSocketAddress.createUnresolved(host, port);
    }
}
