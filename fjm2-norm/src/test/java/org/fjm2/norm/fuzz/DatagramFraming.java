package org.fjm2.norm.fuzz;

import java.util.ArrayList;
import java.util.List;

/**
 * The raw form of a stateful target's input: datagrams back to back, each a 16-bit big-endian length and that many
 * bytes (the last one cut short by the end of the input), at most {@link NormMessageSynth#MAX_MESSAGES}.
 */
public final class DatagramFraming {

    private DatagramFraming() {
    }

    public static List<byte[]> split(byte[] input) {
        FuzzInput in = new FuzzInput(input);
        List<byte[]> datagrams = new ArrayList<>();
        while (in.hasMore() && datagrams.size() < NormMessageSynth.MAX_MESSAGES) {
            datagrams.add(in.chunk());
        }
        return datagrams;
    }

    public static byte[] join(List<byte[]> datagrams) {
        FuzzInputWriter out = new FuzzInputWriter();
        for (byte[] d : datagrams) {
            out.chunk(d);
        }
        return out.toByteArray();
    }
}
