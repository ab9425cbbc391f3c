package org.fjm2.norm.sender;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;

import org.fjm2.norm.api.NormConfig;
import org.junit.jupiter.api.Test;

/** The back-off factor advertised follows how many receivers the sender tracks. */
class AdvertisedBackoffTest {

    private static final NormConfig BASE = NormConfig.builder("239.1.2.3", 5000).build();

    @Test
    void aSmallTrackedGroupGetsTheSmallGroupFactorAndNobodyOrManyTheConfiguredOne() {
        AtomicInteger tracked = new AtomicInteger();
        AdvertisedBackoff backoff = new AdvertisedBackoff(BASE.toBuilder().smallGroupBackoffFactor(0).build(),
                tracked::get);
        assertThat(backoff.factor()).as("no receiver heard yet").isEqualTo(NormConfig.DEFAULT_BACKOFF_FACTOR);
        for (int n = 1; n <= NormConfig.SMALL_GROUP_RECEIVERS; n++) {
            tracked.set(n);
            assertThat(backoff.factor()).as("%d receivers", n).isZero();
        }
        tracked.set(NormConfig.SMALL_GROUP_RECEIVERS + 1);
        assertThat(backoff.factor()).as("a group too large to skip suppression")
                .isEqualTo(NormConfig.DEFAULT_BACKOFF_FACTOR);
    }

    @Test
    void byDefaultEveryGroupGetsTheConfiguredFactor() {
        AtomicInteger tracked = new AtomicInteger(2);
        assertThat(new AdvertisedBackoff(BASE, tracked::get).factor()).isEqualTo(NormConfig.DEFAULT_BACKOFF_FACTOR);
        NormConfig off = BASE.toBuilder().backoffFactor(6).build();
        assertThat(new AdvertisedBackoff(off, tracked::get).factor()).isEqualTo(6);
        NormConfig one = BASE.toBuilder().backoffFactor(6).smallGroupBackoffFactor(1).build();
        assertThat(new AdvertisedBackoff(one, tracked::get).factor()).isEqualTo(1);
        tracked.set(0);
        assertThat(new AdvertisedBackoff(one, tracked::get).factor()).isEqualTo(6);
    }
}
