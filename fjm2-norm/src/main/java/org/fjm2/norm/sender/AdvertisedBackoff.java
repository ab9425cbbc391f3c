package org.fjm2.norm.sender;

import java.util.function.IntSupplier;

import org.fjm2.norm.api.NormConfig;

/**
 * The NACK back-off factor this sender advertises in every header (RFC 5740's "backoff" field; receivers wait up to
 * that many GRTTs before they NACK, and the sender aggregates repair requests for one GRTT more): the configured
 * factor, or {@link NormConfig#smallGroupBackoffFactor} (when set) while the sender tracks between 1 and
 * {@link NormConfig#SMALL_GROUP_RECEIVERS} receivers. The back-off exists so that one NACK of many receivers
 * suppresses the others'; a few receivers have little to suppress, and over a long round trip each loss then waited
 * several GRTTs for nothing. Receivers that never sent feedback are not tracked, so none counted (a sender that
 * heard nobody yet) keeps the configured factor. Read on the session's event loop.
 */
final class AdvertisedBackoff {

    private final int configured;
    private final int smallGroup;
    private final IntSupplier trackedReceivers;

    /** @param trackedReceivers how many receivers the sender tracks now */
    AdvertisedBackoff(NormConfig config, IntSupplier trackedReceivers) {
        this.configured = config.backoffFactor();
        this.smallGroup = config.smallGroupBackoffFactor();
        this.trackedReceivers = trackedReceivers;
    }

    /** The factor to advertise now (0..15). */
    int factor() {
        int n = trackedReceivers.getAsInt();
        return smallGroup >= 0 && n > 0 && n <= NormConfig.SMALL_GROUP_RECEIVERS ? smallGroup : configured;
    }
}
