package org.fjm2.norm.engine;

import java.net.InetSocketAddress;

import io.netty.buffer.ByteBuf;

/**
 * One step of a datagram's way into a session (authenticate, validate, drop our own echo, dispatch): it passes the
 * datagram on, or drops it and counts why. Steps may rewrite the datagram in place (group security strips its
 * protection). Run on the session's event loop.
 */
interface InboundStep {

    /** True to pass the datagram to the next step. */
    boolean pass(ByteBuf datagram, InetSocketAddress from);
}
