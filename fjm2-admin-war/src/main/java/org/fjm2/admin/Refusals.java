package org.fjm2.admin;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts every refused request by reason and logs it, at most one line per reason every
 * {@link #LOG_INTERVAL_MILLIS}: whoever can reach the API can make refusals frequent, and a log flooded by them
 * hides everything else. The line that goes out says how many of that reason were not logged since the last one.
 * Thread-safe: request threads call {@link #refuse} concurrently.
 */
final class Refusals {

    /** Shortest time between two log lines about the same reason. */
    static final long LOG_INTERVAL_MILLIS = 10_000;

    private static final Logger LOG = LoggerFactory.getLogger(Refusals.class);

    /** Why a request was refused; each has its own counter and log limit. */
    enum Reason {
        /** 401: no token, or not a configured one. */
        UNAUTHORIZED,
        /** 400: malformed body, id, host or port. */
        BAD_REQUEST,
        /** 400: a host the registry never lists (loopback, multicast, broadcast, unspecified). */
        FORBIDDEN_ADDRESS,
        /** 403: the node belongs to another token. */
        NOT_OWNER,
        /** 413: body over the limit. */
        TOO_LARGE,
        /** 503: registry full, busy, failing or stopping. */
        UNAVAILABLE;

        /** "forbidden address" */
        String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', ' ');
        }
    }

    private static final class Counter {
        final AtomicLong total = new AtomicLong();
        final AtomicLong unlogged = new AtomicLong();
        final AtomicLong nextLogAt = new AtomicLong(Long.MIN_VALUE);
    }

    private final Map<Reason, Counter> counters = new EnumMap<>(Reason.class);
    private final LongSupplier clock;

    /** @param clock milliseconds; {@code System::currentTimeMillis} or, in tests, a clock they move */
    Refusals(LongSupplier clock) {
        this.clock = clock;
        for (Reason r : Reason.values()) {
            counters.put(r, new Counter());
        }
    }

    /**
     * Counts a refusal and logs it unless a line about the same reason went out less than
     * {@link #LOG_INTERVAL_MILLIS} ago.
     *
     * @param detail what was wrong, as answered to the client (never a token)
     * @param remote the client's address
     */
    void refuse(Reason reason, String request, String detail, String remote) {
        Counter c = counters.get(reason);
        long total = c.total.incrementAndGet();
        long now = clock.getAsLong();
        long next = c.nextLogAt.get();
        if (now < next || !c.nextLogAt.compareAndSet(next, now + LOG_INTERVAL_MILLIS)) {
            c.unlogged.incrementAndGet();
            return;
        }
        long unlogged = c.unlogged.getAndSet(0);
        LOG.warn("refused {} from {} ({}): {} [{} refused for this reason so far; {} not logged since the last line,"
                + " at most one line every {} s]", request, remote, reason.label(), detail, total, unlogged,
                LOG_INTERVAL_MILLIS / 1000);
    }

    /** Refusals of {@code reason} since start. */
    long count(Reason reason) {
        return counters.get(reason).total.get();
    }

    /** Every reason's count, in declaration order. */
    Map<Reason, Long> counts() {
        Map<Reason, Long> out = new EnumMap<>(Reason.class);
        counters.forEach((r, c) -> out.put(r, c.total.get()));
        return out;
    }
}
