package org.fjm2.norm.sender;

/** Paces datagrams at the configured rate, whatever the receivers say (NORM without congestion control). */
public final class FixedRateController extends PacedRateController {

    public FixedRateController(long bitsPerSecond) {
        super(bitsPerSecond);
    }
}
