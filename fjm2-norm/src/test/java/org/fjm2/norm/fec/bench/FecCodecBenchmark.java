package org.fjm2.norm.fec.bench;

import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.fjm2.norm.fec.FecCodec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Throughput of {@link FecCodec} on one block: all parity in one pass, one parity symbol on demand, and decoding in
 * the worst case, where as many source symbols as there are parity symbols are lost so that every parity symbol is
 * used. One operation codes one block of k source symbols; {@link FecBenchmarkMain} turns operations per second into
 * MB/s of source data.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class FecCodecBenchmark {

    /** Seed of the block contents (the timing does not depend on them, but runs stay reproducible). */
    static final long SEED = 42;

    @Param({"16", "32", "64"})
    public int k;

    @Param({"4", "8", "16"})
    public int parity;

    @Param({"1400"})
    public int symbolLength;

    @Param({"5"})
    public int fecId;

    private FecCodec codec;
    private byte[][] source;
    private byte[][] paritySymbols;
    private int[] zeroOffsets;
    private byte[] oneParity;
    private byte[][] received;
    private int[] esis;

    @Setup(Level.Trial)
    public void setUp() {
        codec = FecCodec.forFecId(fecId, fecId == FecCodec.FEC_ID_RS ? 16 : 8);
        Random random = new Random(SEED);
        source = new byte[k][symbolLength];
        for (byte[] symbol : source) {
            random.nextBytes(symbol);
        }
        paritySymbols = new byte[parity][symbolLength];
        zeroOffsets = new int[Math.max(k, parity)];
        codec.encodeParity(k, k, parity, source, zeroOffsets, null, symbolLength, paritySymbols, zeroOffsets);
        oneParity = new byte[symbolLength];
        received = new byte[k][];
        esis = new int[k];
    }

    @Benchmark
    public byte[][] encodeBlock() {
        codec.encodeParity(k, k, parity, source, zeroOffsets, null, symbolLength, paritySymbols, zeroOffsets);
        return paritySymbols;
    }

    @Benchmark
    public byte[] encodeOneParity() {
        codec.encodeOneParity(k, k, parity, source, zeroOffsets, null, symbolLength, parity - 1, oneParity, 0);
        return oneParity;
    }

    @Benchmark
    public boolean decodeParityOnlyWorstCase() {
        // lose the first min(k, parity) source symbols; their slots get the parity symbols (overwritten by decode,
        // which does not change the amount of work)
        int lost = Math.min(k, parity);
        for (int s = 0; s < k; s++) {
            boolean replaced = s < lost;
            received[s] = replaced ? paritySymbols[s] : source[s];
            esis[s] = replaced ? k + s : s;
        }
        return codec.decode(k, k, parity, received, zeroOffsets, esis, symbolLength);
    }
}
