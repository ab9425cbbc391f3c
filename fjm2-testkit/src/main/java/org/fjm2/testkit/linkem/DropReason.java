package org.fjm2.testkit.linkem;

/** Why the emulator dropped a packet; each reason has its own counter per direction. */
public enum DropReason {
    /** Independent random loss ({@link LinkProfile#lossProbability()}). */
    LOSS,
    /** Gilbert-Elliott burst loss ({@link LinkProfile#burstLoss()}). */
    BURST,
    /** The rate limiter's queue (or the emulator's in-flight memory bound) was full. */
    QUEUE,
    /** The link was down by its {@link UpDownSchedule}. */
    DOWN
}
