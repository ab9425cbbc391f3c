package org.fjm2.norm.engine;

import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.fec.BlockDecoder;
import org.fjm2.norm.fec.ParityEncoder;
import org.fjm2.norm.fec.ReedSolomonBlockCoder;

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
