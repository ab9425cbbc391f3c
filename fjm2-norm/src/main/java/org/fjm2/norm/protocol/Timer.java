package org.fjm2.norm.protocol;

/**
 * A reusable one-shot timer owned by a {@link TimerQueue}. Protocol state machines keep one instance per timer
 * role (NACK back-off, flush, probe...) and re-arm it, so scheduling allocates nothing.
 */
public final class Timer {

    final Runnable action;
    final String name;
    long deadlineNanos;
    int heapIndex = -1;

    public Timer(String name, Runnable action) {
        this.name = name;
        this.action = action;
    }

    public boolean isActive() {
        return heapIndex >= 0;
    }

    public long deadlineNanos() {
        return deadlineNanos;
    }

    @Override
    public String toString() {
        return "Timer[" + name + (isActive() ? " @" + deadlineNanos : " idle") + "]";
    }
}
