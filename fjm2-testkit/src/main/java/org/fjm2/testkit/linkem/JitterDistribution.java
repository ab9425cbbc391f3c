package org.fjm2.testkit.linkem;

/** How the per-packet jitter around the fixed delay is drawn. */
public enum JitterDistribution {
    /** Uniform in {@code [-jitter, +jitter]}. */
    UNIFORM,
    /** Normal with standard deviation {@code jitter}, cut at three deviations so no packet waits unboundedly. */
    NORMAL
}
