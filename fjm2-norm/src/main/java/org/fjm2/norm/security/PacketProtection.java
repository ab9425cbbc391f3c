package org.fjm2.norm.security;

import java.security.GeneralSecurityException;
import java.util.Arrays;

import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import io.netty.buffer.ByteBuf;

/**
 * Optional group security: every datagram of the session is authenticated (HMAC-SHA256, truncated) or sealed
 * (AES-256-GCM) under keys derived from the group key <em>and the group's address and port</em>, so a datagram
 * of one group is worthless in another group that shares the key file. One instance per session, used on its
 * event loop only.
 *
 * <pre>
 * authenticate: | NORM message | counter (8) | HMAC-SHA256(k_mac, message | counter)[0..16) |
 * seal:         | source_id (4) | nonce prefix (4) | counter (8) | AES-GCM(k_enc, nonce = prefix | counter,
 *                 aad = source_id, message) + tag (16) |
 * </pre>
 * Nonces never repeat under one key: the prefix is random per session (so two processes that share a node id, or a
 * restart after the clock stepped back, still differ), the counter counts every datagram. The counter also dates
 * the datagram: it starts at {@code currentTimeMillis << 20} and steps up to the clock whenever it lags by more than
 * a second, so its upper bits are the send time in milliseconds, to a second. A receiver keeps, per source node,
 * the highest counter seen and a {@link #REPLAY_WINDOW}-counter window below it: older or already seen is a
 * replay. A receiver that restarted has no windows; it still refuses captures dated more than {@code maxAge}
 * before its clock (the sender's clock is trusted to that precision).
 * Protected groups do not interoperate with unprotected NORM nodes (NRL NORM has no such mode).
 */
public final class PacketProtection {

    /** What the session's datagrams carry. */
    public enum Mode {
        /** Integrity and origin: anyone with the key may read, nobody without it can inject. */
        AUTHENTICATE,
        /** Confidentiality too: nobody without the key can read or inject. */
        SEAL
    }

    public static final int COUNTER_BYTES = 8;
    public static final int NONCE_PREFIX_BYTES = 4;
    public static final int MAC_BYTES = 16;
    public static final int GCM_TAG_BYTES = 16;
    /** Counters below the highest seen that are still accepted once (out-of-order arrival). */
    public static final int REPLAY_WINDOW = 1024;
    /** Source nodes whose replay windows are kept; the least recently heard beyond it is forgotten. */
    public static final int MAX_REPLAY_SOURCES = 4096;
    /**
     * How far a datagram's date may lie before the receiver's clock: older captures are replays even for a receiver
     * that restarted since. It also bounds the clock difference tolerated between hosts (a host whose clock lags
     * more is refused, with a log line that says so).
     */
    public static final java.time.Duration DEFAULT_MAX_AGE = java.time.Duration.ofMinutes(10);
    /** How far the date in the counter may fall behind the clock before the counter steps up to it. */
    static final long REDATE_AFTER_MILLIS = 1000;
    /** Counter bits below the milliseconds of the date (2^20 datagrams per millisecond before the date runs ahead). */
    static final int COUNTER_SUBMILLI_BITS = 20;

    /** Why the last {@link #unprotect} refused a datagram. */
    public enum Refusal {
        TOO_SHORT, FORGED, REPLAYED, TOO_OLD
    }

    private final Mode mode;
    private final Mac mac;
    private final Cipher cipher;
    private final SecretKeySpec aesKey;
    private final byte[] nonce = new byte[12];
    private final byte[] aad = new byte[4];
    private final byte[] macOut = new byte[32];
    private final byte[] scratch = new byte[65536 + 64];
    private final ReplayWindows windows = new ReplayWindows(MAX_REPLAY_SOURCES);
    private final int localNodeId;
    private final int noncePrefix;
    private final long maxAgeMillis;
    private final java.util.function.LongSupplier clock;
    private long counter;
    private Refusal refusal;

    /** A session's protection for the group {@code group}:{@code port}, with the default maximum age. */
    public PacketProtection(Mode mode, GroupKey key, int localNodeId, java.net.InetAddress group, int port) {
        this(mode, key, localNodeId, group, port, DEFAULT_MAX_AGE.toMillis(), System::currentTimeMillis,
                randomNoncePrefix());
    }

    /** A fresh nonce prefix from the system's strong random source. */
    static int randomNoncePrefix() {
        return new java.security.SecureRandom().nextInt();
    }

    /**
     * @param maxAgeMillis how old a datagram may be (its date against {@code clock}); 0 or less: no limit
     * @param clock        wall clock in milliseconds (tests move it)
     * @param noncePrefix  this session's nonce prefix (random in production)
     */
    public PacketProtection(Mode mode, GroupKey key, int localNodeId, java.net.InetAddress group, int port,
                            long maxAgeMillis, java.util.function.LongSupplier clock, int noncePrefix) {
        this.mode = mode;
        this.localNodeId = localNodeId;
        this.maxAgeMillis = maxAgeMillis;
        this.clock = clock;
        this.noncePrefix = noncePrefix;
        try {
            byte[] k = key.bytes();
            // Separate keys for the two uses, derived from the group key and bound to the group.
            byte[] macKey = derive(k, "fjm2-norm-mac", group, port);
            byte[] encKey = derive(k, "fjm2-norm-aes", group, port);
            this.mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(macKey, "HmacSHA256"));
            this.aesKey = new SecretKeySpec(encKey, "AES");
            this.cipher = Cipher.getInstance("AES/GCM/NoPadding");
            java.util.Arrays.fill(macKey, (byte) 0);
            java.util.Arrays.fill(encKey, (byte) 0);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("JCE lacks HmacSHA256 or AES/GCM", e);
        }
        this.counter = clock.getAsLong() << COUNTER_SUBMILLI_BITS;
    }

    /** label | 0 | IPv4 group address (4) | port (2), under HMAC-SHA256 with the group key. */
    private static byte[] derive(byte[] key, String label, java.net.InetAddress group, int port)
            throws GeneralSecurityException {
        Mac h = Mac.getInstance("HmacSHA256");
        h.init(new SecretKeySpec(key, "HmacSHA256"));
        h.update(label.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        h.update((byte) 0);
        h.update(group.getAddress());
        h.update((byte) (port >>> 8));
        h.update((byte) port);
        return h.doFinal();
    }

    public Mode mode() {
        return mode;
    }

    /** Bytes this protection adds to a datagram. */
    public int overhead() {
        return overhead(mode);
    }

    /** Bytes a protection mode adds to a datagram (0 without protection). */
    public static int overhead(Mode mode) {
        if (mode == null) {
            return 0;
        }
        return mode == Mode.AUTHENTICATE ? COUNTER_BYTES + MAC_BYTES
                : 4 + NONCE_PREFIX_BYTES + COUNTER_BYTES + GCM_TAG_BYTES;
    }

    /** Why the last refused datagram was refused (meaningful after {@link #unprotect} returned false). */
    public Refusal lastRefusal() {
        return refusal;
    }

    /** Source nodes with a replay window (at most {@link #MAX_REPLAY_SOURCES}). */
    public int trackedSources() {
        return windows.size();
    }

    /**
     * The next counter: one more than the last, moved up to the clock once it lags by more than
     * {@link #REDATE_AFTER_MILLIS}. Counters stay consecutive between those steps, so datagrams reordered on the way
     * still fall in the receivers' replay windows; a step only affects a datagram overtaken across it.
     */
    private long nextCounter() {
        long dated = clock.getAsLong() << COUNTER_SUBMILLI_BITS;
        counter = dated - counter > REDATE_AFTER_MILLIS << COUNTER_SUBMILLI_BITS ? dated : counter + 1;
        return counter;
    }

    /**
     * Protects the datagram in place (its readable bytes): appends counter and MAC, or replaces the content by
     * source_id, nonce and the sealed message. The buffer must have {@link #overhead()} writable bytes.
     */
    public void protect(ByteBuf datagram) {
        long c = nextCounter();
        int start = datagram.readerIndex();
        int length = datagram.readableBytes();
        try {
            if (mode == Mode.AUTHENTICATE) {
                datagram.writeLong(c);
                datagram.getBytes(start, scratch, 0, length + COUNTER_BYTES);
                mac.update(scratch, 0, length + COUNTER_BYTES);
                mac.doFinal(macOut, 0);
                datagram.writeBytes(macOut, 0, MAC_BYTES);
            } else {
                datagram.getBytes(start, scratch, 0, length);
                nonce(noncePrefix, c);
                aad(localNodeId);
                cipher.init(Cipher.ENCRYPT_MODE, aesKey, new GCMParameterSpec(GCM_TAG_BYTES * 8, nonce));
                cipher.updateAAD(aad);
                int sealedOffset = 4 + NONCE_PREFIX_BYTES + COUNTER_BYTES;
                int sealed = cipher.doFinal(scratch, 0, length, scratch, sealedOffset);
                datagram.writerIndex(start);
                datagram.writeInt(localNodeId);
                datagram.writeInt(noncePrefix);
                datagram.writeLong(c);
                datagram.writeBytes(scratch, sealedOffset, sealed);
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot protect datagram", e);
        }
    }

    /**
     * Checks and strips the protection of a received datagram in place; false (leave it to be counted and dropped;
     * {@link #lastRefusal()} says why) when it is too short, forged, a replay or too old.
     */
    public boolean unprotect(ByteBuf datagram) {
        int start = datagram.readerIndex();
        int length = datagram.readableBytes();
        try {
            if (mode == Mode.AUTHENTICATE) {
                int body = length - COUNTER_BYTES - MAC_BYTES;
                if (body < 8) {
                    return refuse(Refusal.TOO_SHORT);
                }
                datagram.getBytes(start, scratch, 0, length);
                mac.update(scratch, 0, body + COUNTER_BYTES);
                mac.doFinal(macOut, 0);
                int difference = 0;
                for (int i = 0; i < MAC_BYTES; i++) {
                    difference |= macOut[i] ^ scratch[body + COUNTER_BYTES + i];     // constant time
                }
                if (difference != 0) {
                    return refuse(Refusal.FORGED);
                }
                if (!fresh(datagram.getInt(start + 4), datagram.getLong(start + body))) {
                    return false;
                }
                datagram.writerIndex(start + body);
                return true;
            }
            int header = 4 + NONCE_PREFIX_BYTES + COUNTER_BYTES;
            int sealed = length - header;
            if (sealed < GCM_TAG_BYTES + 8) {
                return refuse(Refusal.TOO_SHORT);
            }
            int source = datagram.getInt(start);
            int prefix = datagram.getInt(start + 4);
            long c = datagram.getLong(start + 8);
            datagram.getBytes(start + header, scratch, 0, sealed);
            nonce(prefix, c);
            aad(source);
            cipher.init(Cipher.DECRYPT_MODE, aesKey, new GCMParameterSpec(GCM_TAG_BYTES * 8, nonce));
            cipher.updateAAD(aad);
            int plain;
            try {
                plain = cipher.doFinal(scratch, 0, sealed, scratch, 0);
            } catch (GeneralSecurityException e) {
                return refuse(Refusal.FORGED);
            }
            // the NORM header's source_id must be the one the tag authenticated
            if (plain < 8 || ((scratch[4] & 0xFF) << 24 | (scratch[5] & 0xFF) << 16 | (scratch[6] & 0xFF) << 8
                    | (scratch[7] & 0xFF)) != source) {
                return refuse(Refusal.FORGED);
            }
            if (!fresh(source, c)) {
                return false;
            }
            datagram.setBytes(start, scratch, 0, plain);
            datagram.writerIndex(start + plain);
            return true;
        } catch (GeneralSecurityException | IndexOutOfBoundsException e) {
            return refuse(Refusal.FORGED);
        }
    }

    /** An authentic datagram's counter: not older than the maximum age, not seen before. */
    private boolean fresh(int source, long c) {
        if (maxAgeMillis > 0 && (c >>> COUNTER_SUBMILLI_BITS) < clock.getAsLong() - maxAgeMillis) {
            return refuse(Refusal.TOO_OLD);
        }
        if (!windows.window(source).accept(c)) {
            return refuse(Refusal.REPLAYED);
        }
        return true;
    }

    private boolean refuse(Refusal why) {
        refusal = why;
        return false;
    }

    private void nonce(int prefix, long c) {
        nonce[0] = (byte) (prefix >>> 24);
        nonce[1] = (byte) (prefix >>> 16);
        nonce[2] = (byte) (prefix >>> 8);
        nonce[3] = (byte) prefix;
        for (int i = 0; i < 8; i++) {
            nonce[4 + i] = (byte) (c >>> (56 - 8 * i));
        }
    }

    private void aad(int source) {
        aad[0] = (byte) (source >>> 24);
        aad[1] = (byte) (source >>> 16);
        aad[2] = (byte) (source >>> 8);
        aad[3] = (byte) source;
    }

    /**
     * The replay windows of authentic sources, at most {@code capacity}: a new source beyond it replaces the least
     * recently heard one (which, if it comes back, starts a fresh window: its own counters are still dated).
     */
    static final class ReplayWindows {
        private final int capacity;
        private final io.netty.util.collection.IntObjectHashMap<ReplayWindow> bySource =
                new io.netty.util.collection.IntObjectHashMap<>();
        private long tick;

        ReplayWindows(int capacity) {
            this.capacity = capacity;
        }

        ReplayWindow window(int source) {
            ReplayWindow w = bySource.get(source);
            if (w == null) {
                if (bySource.size() >= capacity) {
                    forgetLeastRecentlyHeard();
                }
                w = new ReplayWindow();
                bySource.put(source, w);
            }
            w.lastHeard = ++tick;
            return w;
        }

        /** O(capacity), paid only when a new source arrives at a full table. */
        private void forgetLeastRecentlyHeard() {
            int eldest = 0;
            long oldest = Long.MAX_VALUE;
            for (io.netty.util.collection.IntObjectMap.PrimitiveEntry<ReplayWindow> e : bySource.entries()) {
                if (e.value().lastHeard < oldest) {
                    oldest = e.value().lastHeard;
                    eldest = e.key();
                }
            }
            bySource.remove(eldest);
        }

        int size() {
            return bySource.size();
        }
    }

    /** Highest counter seen and a bitmap of the {@link #REPLAY_WINDOW} counters below it. */
    static final class ReplayWindow {
        long lastHeard;
        private long highest = -1;
        private final long[] seen = new long[REPLAY_WINDOW / 64];

        boolean accept(long c) {
            if (highest < 0) {
                highest = c;
                mark(c);
                return true;
            }
            if (c > highest) {
                long shift = c - highest;
                if (shift >= REPLAY_WINDOW) {
                    Arrays.fill(seen, 0L);
                } else {
                    for (long x = highest + 1; x <= c; x++) {
                        clear(x);
                    }
                }
                highest = c;
                mark(c);
                return true;
            }
            if (highest - c >= REPLAY_WINDOW || isMarked(c)) {
                return false;
            }
            mark(c);
            return true;
        }

        private void mark(long c) {
            int bit = (int) (c & (REPLAY_WINDOW - 1));
            seen[bit >>> 6] |= 1L << bit;
        }

        private void clear(long c) {
            int bit = (int) (c & (REPLAY_WINDOW - 1));
            seen[bit >>> 6] &= ~(1L << bit);
        }

        private boolean isMarked(long c) {
            int bit = (int) (c & (REPLAY_WINDOW - 1));
            return (seen[bit >>> 6] & (1L << bit)) != 0;
        }
    }
}
