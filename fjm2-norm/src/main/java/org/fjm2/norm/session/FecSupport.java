package org.fjm2.norm.session;

import org.fjm2.norm.receiver.BlockDecoder;
import org.fjm2.norm.sender.ParityEncoder;

/** The FEC plug-ins a session uses by default. */
final class FecSupport {

    private FecSupport() {
    }

    /** Parity encoder for the sender; null when the configuration asks for no parity. */
    static ParityEncoder encoder(NormConfig config) {
        return null;
    }

    /** Decoder for receivers; null until the Reed-Solomon codec is wired in. */
    static BlockDecoder decoder() {
        return null;
    }
}
