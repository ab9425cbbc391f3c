package org.fjm2.admin.fuzz;

import java.lang.management.ManagementFactory;
import java.util.HexFormat;

/**
 * The resource bounds every fuzz target asserts per input, after the design rule "memory and CPU follow the bytes
 * actually received, never what a header announces": the work for one input must finish within
 * {@link #TIME_LIMIT_NANOS} and allocate at most {@code ALLOCATION_PER_INPUT_BYTE * inputBytes + ALLOCATION_BASE}
 * bytes on the thread that does it.
 *
 * <p>The same bounds as fjm2-norm's {@code org.fjm2.norm.fuzz.InputBounds}, kept here because FJM2-Admin depends on
 * no other module of the project, not even in its tests.
 *
 * <p>Allocation is measured with the JVM's per-thread allocation counter (every heap allocation of the thread,
 * whether kept or garbage), so it is exact and independent of the garbage collector; targets run on heap buffers
 * so that buffer allocations are counted too. Measure on the thread that does the work.
 */
public final class InputBounds {

    /**
     * Wall time for one input: generous for a 2-core machine shared with a build, far below what a header-driven
     * loop over millions of announced symbols or blocks takes.
     */
    public static final long TIME_LIMIT_NANOS = 200_000_000L;

    /**
     * Bytes a decoder may allocate per input byte: copies of the payload, decoded objects and strings (a char per
     * byte, boxed values, collections) stay well below it, while a buffer sized from a length field does not.
     */
    public static final long ALLOCATION_PER_INPUT_BYTE = 64;

    /**
     * Fixed allowance per input: scratch buffers of a datagram's maximum size (64 KiB), cipher and MAC state, feedback
     * packets, a lazily loaded class or a log line. One MiB is 16 such datagram buffers.
     */
    public static final long ALLOCATION_BASE = 1L << 20;

    /**
     * Extra allowance while Jazzer fuzzes (not in regression runs): its comparison hooks copy the strings and arrays
     * the code under test compares, on the comparing thread, which multiplies the allocation of string-heavy parsers
     * without any fault of theirs. A header-sized allocation is still orders of magnitude above it.
     */
    public static final long FUZZING_ALLOWANCE_FACTOR = 8;

    /** Whether Jazzer fuzzes in this JVM (it reads the same variable). */
    private static final boolean FUZZING = System.getenv("JAZZER_FUZZ") != null
            && !System.getenv("JAZZER_FUZZ").isEmpty();

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    static {
        if (!THREADS.isThreadAllocatedMemorySupported()) {
            throw new IllegalStateException("this JVM does not count allocated bytes per thread");
        }
        THREADS.setThreadAllocatedMemoryEnabled(true);
    }

    private InputBounds() {
    }

    /** What one input cost on the thread that ran it. */
    public record Cost(long nanos, long allocatedBytes) {
    }

    /** Work that may throw the checked exceptions a decoder documents (anything else escapes). */
    @FunctionalInterface
    public interface Work {
        void run() throws Exception;
    }

    /** Bytes allocated so far by the calling thread. */
    public static long allocatedByThisThread() {
        return THREADS.getCurrentThreadAllocatedBytes();
    }

    /** Runs {@code work} on this thread and returns its cost; exceptions pass through unchanged. */
    public static Cost measure(Work work) throws Exception {
        long allocatedBefore = allocatedByThisThread();
        long start = System.nanoTime();
        work.run();
        long nanos = System.nanoTime() - start;
        return new Cost(nanos, allocatedByThisThread() - allocatedBefore);
    }

    /** Largest allocation allowed for an input of {@code inputBytes}. */
    public static long allocationLimit(long inputBytes) {
        return (ALLOCATION_PER_INPUT_BYTE * inputBytes + ALLOCATION_BASE) * (FUZZING ? FUZZING_ALLOWANCE_FACTOR : 1);
    }

    /** Whether {@code cost} is within the bounds for an input of {@code inputBytes}. */
    public static boolean within(Cost cost, long inputBytes) {
        return cost.nanos() <= TIME_LIMIT_NANOS && cost.allocatedBytes() <= allocationLimit(inputBytes);
    }

    /**
     * Checks the cost of an input, confirming a violation on a second run before failing: the first time a code path
     * runs, the JVM loads and links classes (string concatenation and lambda bootstraps allocate megabytes) and runs
     * interpreted, and a garbage collection or a busy core can stretch any run. None of that repeats on the second
     * run, while a cost that follows the input does. {@code run} must do the same work again each time.
     */
    public static void checkConfirmed(java.util.concurrent.Callable<Cost> run, long inputBytes, byte[] input)
            throws Exception {
        Cost first = run.call();
        if (within(first, inputBytes)) {
            return;
        }
        Cost second = run.call();
        if (!within(second, inputBytes)) {
            fail(second, inputBytes, input, first);
        }
    }

    private static void fail(Cost cost, long inputBytes, byte[] input, Cost first) {
        String firstRun = String.format(" (first run: %.1f ms, %,d bytes)", first.nanos() / 1e6,
                first.allocatedBytes());
        if (cost.nanos() > TIME_LIMIT_NANOS) {
            throw new AssertionError(String.format("one input took %.1f ms (limit %d ms) for %d input bytes%s: %s",
                    cost.nanos() / 1e6, TIME_LIMIT_NANOS / 1_000_000, inputBytes, firstRun, describe(input)));
        }
        long limit = allocationLimit(inputBytes);
        throw new AssertionError(String.format("one input allocated %,d bytes (limit %,d = (%d x %d input bytes"
                        + " + %,d) x %d)%s: %s", cost.allocatedBytes(), limit, ALLOCATION_PER_INPUT_BYTE, inputBytes,
                ALLOCATION_BASE, FUZZING ? FUZZING_ALLOWANCE_FACTOR : 1, firstRun, describe(input)));
    }

    /** Runs and checks a stateless decoder whose input is the whole fuzz input ({@code work} must be repeatable). */
    public static void runWithinBounds(byte[] input, Work work) throws Exception {
        checkConfirmed(() -> measure(work), input.length, input);
    }

    /** The input's first bytes in hex, enough to recognise it in a failure message. */
    public static String describe(byte[] input) {
        if (input == null) {
            return "(no input)";
        }
        int shown = Math.min(input.length, 96);
        return input.length + " bytes " + HexFormat.of().formatHex(input, 0, shown)
                + (shown < input.length ? "..." : "");
    }
}
