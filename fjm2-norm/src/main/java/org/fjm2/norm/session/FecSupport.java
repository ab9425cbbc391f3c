package org.fjm2.norm.session;

import org.fjm2.norm.fec.ReedSolomonBlockCoder;
import org.fjm2.norm.receiver.BlockDecoder;
import org.fjm2.norm.sender.ParityEncoder;

/** The FEC plug-ins a session uses by default. */
final class FecSupport {

    private FecSupport() {
    }

    /** Parity encoder for the sender (Reed-Solomon, fec_id 5). */
    static ParityEncoder encoder(NormConfig config) {
        return new ReedSolomonBlockCoder();
    }

    /** Decoder for receivers (Reed-Solomon, fec_id 5, 2 and 129). */
    static BlockDecoder decoder() {
        return new ReedSolomonBlockCoder();
    }
}
