package org.fjm2.testkit.linkem;

/**
 * Gilbert-Elliott two-state burst loss: a Markov chain with a good and a bad state, each with its own loss
 * probability. Per packet the channel first loses (or not) with the current state's probability, then moves
 * from good to bad with probability {@code p} or from bad to good with probability {@code r}.
 *
 * <p>The mean sojourn in the bad state is {@code 1/r} packets, so with {@code lossBad = 1} and
 * {@code lossGood = 0} losses come in bursts of mean length {@code 1/r}, and the long-run loss rate is
 * {@code p/(p+r)}.
 *
 * @param p        probability of moving from good to bad after a packet, in [0, 1]
 * @param r        probability of moving from bad to good after a packet, in (0, 1]
 * @param lossGood loss probability in the good state, in [0, 1] (classic Gilbert model: 0)
 * @param lossBad  loss probability in the bad state, in [0, 1] (classic Gilbert model: 1)
 */
public record GilbertElliott(double p, double r, double lossGood, double lossBad) {

    public GilbertElliott {
        Probability.check("Gilbert-Elliott p (good->bad)", p);
        Probability.check("Gilbert-Elliott r (bad->good)", r);
        Probability.check("Gilbert-Elliott loss in good state", lossGood);
        Probability.check("Gilbert-Elliott loss in bad state", lossBad);
        if (r == 0 && p > 0) {
            throw new IllegalArgumentException("Gilbert-Elliott r (bad->good) must be > 0, or the link stays bad for ever");
        }
    }

    /** The classic Gilbert model: nothing lost in the good state, everything lost in the bad state. */
    public static GilbertElliott gilbert(double p, double r) {
        return new GilbertElliott(p, r, 0, 1);
    }

    /** Long-run fraction of packets spent in the bad state: {@code p/(p+r)}. */
    public double badStateFraction() {
        return p + r == 0 ? 0 : p / (p + r);
    }

    /** Long-run loss probability: the state losses weighted by the time spent in each state. */
    public double meanLossRate() {
        double bad = badStateFraction();
        return bad * lossBad + (1 - bad) * lossGood;
    }

    /** Mean number of consecutive packets spent in the bad state: {@code 1/r}. */
    public double meanBadRunLength() {
        return 1 / r;
    }

    @Override
    public String toString() {
        return "GE(p=" + Probability.percent(p) + ", r=" + Probability.percent(r)
                + ", lossGood=" + Probability.percent(lossGood) + ", lossBad=" + Probability.percent(lossBad) + ")";
    }
}
