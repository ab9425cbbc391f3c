package org.fjm2.norm;

import java.util.function.Predicate;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.ObjectMessageFlyweight;

/** Deterministic loss patterns for tests, decided from a packet's content rather than its arrival order. */
public final class LossPredicates {

    private LossPredicates() {
    }

    /**
     * Drops first-pass NORM_DATA whose (object, block, symbol) hashes below {@code rate}: every receiver using the
     * same rate and salt loses exactly the same segments, whatever else it hears, and repairs always get through.
     */
    public static Predicate<ByteBuf> sharedFirstPassLoss(double rate, long salt) {
        ObjectMessageFlyweight msg = new ObjectMessageFlyweight();
        return buf -> {
            if ((buf.getUnsignedByte(buf.readerIndex()) & 0x0F) != NormWire.TYPE_DATA) {
                return false;
            }
            msg.wrap(buf);
            if (msg.hasFlag(NormWire.FLAG_REPAIR)) {
                return false;
            }
            long key = ((long) msg.objectId() << 40) ^ (msg.blockNumber(8) << 8) ^ msg.symbolId(8) ^ salt;
            return (mix(key) >>> 11) * 0x1.0p-53 < rate;
        };
    }

    /**
     * Drops the first transmission of one segment (symbol 3 of block 0) of every {@code n}th object: sparse,
     * well-separated losses that every receiver using the same {@code n} shares, each its own repair cycle.
     */
    public static Predicate<ByteBuf> sharedSparseLoss(int n) {
        ObjectMessageFlyweight msg = new ObjectMessageFlyweight();
        return buf -> {
            if ((buf.getUnsignedByte(buf.readerIndex()) & 0x0F) != NormWire.TYPE_DATA) {
                return false;
            }
            msg.wrap(buf);
            return !msg.hasFlag(NormWire.FLAG_REPAIR) && msg.objectId() % n == 0 && msg.blockNumber(8) == 0
                    && msg.symbolId(8) == 3;
        };
    }

    /** Drops every NORM_DATA and NORM_INFO of the objects whose id is {@code first + k} for k in [from, to). */
    public static Predicate<ByteBuf> objectsRelativeToFirst(int from, int to) {
        ObjectMessageFlyweight msg = new ObjectMessageFlyweight();
        int[] first = {-1};
        return buf -> {
            int type = buf.getUnsignedByte(buf.readerIndex()) & 0x0F;
            if (type != NormWire.TYPE_DATA && type != NormWire.TYPE_INFO) {
                return false;
            }
            msg.wrap(buf);
            if (first[0] < 0) {
                first[0] = msg.objectId();
            }
            int relative = (msg.objectId() - first[0]) & 0xFFFF;
            return relative >= from && relative < to;
        };
    }

    /** The first NORM_INFO seen (then none): receivers must ask for the info again; {@code dropped[0]} says it came. */
    public static Predicate<ByteBuf> firstInfo(boolean[] dropped) {
        return datagram -> {
            boolean info = (datagram.getUnsignedByte(datagram.readerIndex()) & 0x0F) == NormWire.TYPE_INFO;
            if (info && !dropped[0]) {
                dropped[0] = true;
                return true;
            }
            return false;
        };
    }

    /** Whether a datagram is a NORM_DATA (any object). */
    public static boolean isData(ByteBuf buf) {
        return (buf.getUnsignedByte(buf.readerIndex()) & 0x0F) == NormWire.TYPE_DATA;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
