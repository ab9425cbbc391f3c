package org.fjm2.jms;

/** What a consumer's full queue does with one more message. Either way the drop is counted and reported. */
public enum OverflowPolicy {
    /** Drop the oldest waiting message of the lowest priority: the consumer sees the newest data. */
    DROP_OLDEST("drop-oldest"),
    /** Drop the arriving message: the consumer sees an unbroken prefix. */
    DROP_NEWEST("drop-newest");

    private final String parameterValue;

    OverflowPolicy(String parameterValue) {
        this.parameterValue = parameterValue;
    }

    public String parameterValue() {
        return parameterValue;
    }

    static OverflowPolicy fromParameter(String value) {
        for (OverflowPolicy p : values()) {
            if (p.parameterValue.equals(value)) {
                return p;
            }
        }
        throw new IllegalArgumentException(JmsParameters.CONSUMER_OVERFLOW
                + " must be drop-oldest or drop-newest, got '" + value + "'");
    }
}
