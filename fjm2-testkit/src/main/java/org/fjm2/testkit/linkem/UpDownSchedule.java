package org.fjm2.testkit.linkem;

import java.time.Duration;

import org.fjm2.util.Quantities;

/**
 * A link that goes down and comes back on a fixed cycle: up for {@code up}, down for {@code down}, repeated for
 * ever, starting {@code startOffset} after the emulator starts (the link is up during the offset). While down,
 * datagrams are dropped ({@link DropReason#DOWN}) and TCP bytes are held until the link is up again.
 *
 * @param up          how long each up period lasts, &gt; 0
 * @param down        how long each down period lasts, &gt; 0
 * @param startOffset time from the emulator's start to the first up period, &ge; 0
 */
public record UpDownSchedule(Duration up, Duration down, Duration startOffset) {

    public UpDownSchedule {
        if (up == null || up.isNegative() || up.isZero()) {
            throw new IllegalArgumentException("up/down schedule: the up period must be > 0, got " + up);
        }
        if (down == null || down.isNegative() || down.isZero()) {
            throw new IllegalArgumentException("up/down schedule: the down period must be > 0, got " + down);
        }
        if (startOffset == null || startOffset.isNegative()) {
            throw new IllegalArgumentException("up/down schedule: the start offset must be >= 0, got " + startOffset);
        }
    }

    /** Up for {@code up}, down for {@code down}, repeated, starting at once. */
    public static UpDownSchedule of(Duration up, Duration down) {
        return new UpDownSchedule(up, down, Duration.ZERO);
    }

    /** Whether the link is down {@code elapsedNanos} after the emulator started. */
    public boolean isDown(long elapsedNanos) {
        long sinceOffset = elapsedNanos - startOffset.toNanos();
        if (sinceOffset < 0) {
            return false;
        }
        return sinceOffset % cycleNanos() >= up.toNanos();
    }

    /** The first moment at or after {@code elapsedNanos} (since the start) when the link is up. */
    public long nextUpAt(long elapsedNanos) {
        if (!isDown(elapsedNanos)) {
            return elapsedNanos;
        }
        long sinceOffset = elapsedNanos - startOffset.toNanos();
        long cycle = cycleNanos();
        return elapsedNanos + (cycle - sinceOffset % cycle);
    }

    private long cycleNanos() {
        return up.toNanos() + down.toNanos();
    }

    @Override
    public String toString() {
        String s = "up " + Quantities.formatDuration(up) + " / down " + Quantities.formatDuration(down);
        return startOffset.isZero() ? s : s + " after " + Quantities.formatDuration(startOffset);
    }
}
