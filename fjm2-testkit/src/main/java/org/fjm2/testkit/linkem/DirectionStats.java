package org.fjm2.testkit.linkem;

import org.fjm2.util.Quantities;

/**
 * A snapshot of one direction's counters. Packets are datagrams in UDP and multicast modes and read chunks in TCP
 * mode. {@code packetsOut} includes duplicates, so {@code packetsIn - dropped() + duplicated - packetsOut} is
 * what is still in flight inside the emulator.
 *
 * @param direction      "forward" (client/side A to target/side B) or "reverse"
 * @param packetsIn      packets that entered this direction
 * @param bytesIn        their bytes
 * @param packetsOut     packets delivered out of this direction (duplicates included)
 * @param bytesOut       their bytes
 * @param droppedLoss    dropped by random loss
 * @param droppedBurst   dropped by Gilbert-Elliott burst loss
 * @param droppedQueue   dropped because the rate limiter's queue (or the in-flight memory bound) was full
 * @param droppedDown    dropped because the link was down
 * @param duplicated     extra copies delivered
 * @param reordered      packets held back so that later packets overtake them
 * @param delayedByLoss  TCP mode: chunks that a loss draw delayed by one retransmission timeout instead of dropping
 * @param heldWhileDown  TCP mode: chunks held until the link came back up instead of dropping
 */
public record DirectionStats(String direction, long packetsIn, long bytesIn, long packetsOut, long bytesOut,
                             long droppedLoss, long droppedBurst, long droppedQueue, long droppedDown,
                             long duplicated, long reordered, long delayedByLoss, long heldWhileDown) {

    /** All packets dropped, whatever the reason. */
    public long dropped() {
        return droppedLoss + droppedBurst + droppedQueue + droppedDown;
    }

    public long dropped(DropReason reason) {
        return switch (reason) {
            case LOSS -> droppedLoss;
            case BURST -> droppedBurst;
            case QUEUE -> droppedQueue;
            case DOWN -> droppedDown;
        };
    }

    /** Packets admitted but not yet delivered (in the delay line or the rate limiter's queue). */
    public long inFlight() {
        return packetsIn - dropped() + duplicated - packetsOut;
    }

    /** e.g. {@code forward in 1000/1.4m out 985/1.38m drop loss 10 burst 5 queue 0 down 0 dup 0 reord 2}. */
    public String statusLine() {
        StringBuilder sb = new StringBuilder(direction)
                .append(" in ").append(packetsIn).append('/').append(Quantities.formatBytes(bytesIn))
                .append(" out ").append(packetsOut).append('/').append(Quantities.formatBytes(bytesOut))
                .append(" drop loss ").append(droppedLoss).append(" burst ").append(droppedBurst)
                .append(" queue ").append(droppedQueue).append(" down ").append(droppedDown)
                .append(" dup ").append(duplicated).append(" reord ").append(reordered);
        if (delayedByLoss > 0 || heldWhileDown > 0) {
            sb.append(" rto ").append(delayedByLoss).append(" held ").append(heldWhileDown);
        }
        return sb.toString();
    }
}
