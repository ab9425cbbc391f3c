package org.fjm2.testkit.linkem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** The impairment engine alone, in virtual time: exact, seeded, no sockets and no clock. */
class LinkDirectionTest {

    private static final long SEED = 42;
    private static final long MS = 1_000_000L;
    private static final long RTO = 200 * MS;

    private static LinkDirection direction(LinkProfile profile, long seed) {
        return new LinkDirection("forward", profile, seed, 0, RTO);
    }

    /** Feeds {@code n} packets of {@code bytes}, one every {@code spacingNanos}; returns each departure (-1 = dropped). */
    private static long[] feed(LinkDirection d, int n, int bytes, long spacingNanos) {
        long[] departures = new long[n];
        for (int i = 0; i < n; i++) {
            departures[i] = d.admitDatagram(i * spacingNanos, bytes);
        }
        return departures;
    }

    private static long dropped(long[] departures) {
        long n = 0;
        for (long d : departures) {
            n += d < 0 ? 1 : 0;
        }
        return n;
    }

    @Test
    void randomLossIsExactForASeedAndNearTheConfiguredRate() {
        LinkProfile profile = LinkProfile.builder().loss(0.05).build();
        long lost = dropped(feed(direction(profile, SEED), 100_000, 100, MS));
        long again = dropped(feed(direction(profile, SEED), 100_000, 100, MS));
        long otherSeed = dropped(feed(direction(profile, SEED + 1), 100_000, 100, MS));

        assertThat(lost).as("seed %d: same seed, same losses", SEED).isEqualTo(again);
        assertThat(lost).as("seed %d: the exact count of SplittableRandom's draws", SEED).isEqualTo(5044);
        assertThat(otherSeed).as("another seed draws other losses").isNotEqualTo(lost);
        // 5% of 100000 = 5000, binomial sd ~ 69: four deviations.
        assertThat(lost).as("seed %d", SEED).isBetween(5000L - 276, 5000L + 276);
    }

    @Test
    void countersSplitDropsByReason() {
        LinkDirection d = direction(LinkProfile.builder().loss(0.1).build(), SEED);
        long[] departures = feed(d, 10_000, 1000, MS);
        DirectionStats s = d.counters().snapshot("forward");

        assertThat(s.packetsIn()).isEqualTo(10_000);
        assertThat(s.bytesIn()).isEqualTo(10_000_000);
        assertThat(s.droppedLoss()).isEqualTo(dropped(departures));
        assertThat(s.droppedBurst() + s.droppedQueue() + s.droppedDown()).isZero();
    }

    @Test
    void gilbertElliottLosesInBurstsOfMeanLengthOneOverR() {
        GilbertElliott ge = GilbertElliott.gilbert(0.01, 0.25);
        long[] departures = feed(direction(LinkProfile.builder().burstLoss(ge).build(), SEED), 200_000, 100, MS);

        long bursts = 0;
        long lost = 0;
        boolean inBurst = false;
        for (long d : departures) {
            if (d < 0) {
                lost++;
                if (!inBurst) {
                    bursts++;
                }
            }
            inBurst = d < 0;
        }
        double meanBurst = (double) lost / bursts;
        assertThat(meanBurst).as("seed %d: mean burst length, 1/r = 4", SEED).isCloseTo(ge.meanBadRunLength(), within(0.4));
        assertThat((double) lost / departures.length).as("seed %d: loss rate p/(p+r)", SEED)
                .isCloseTo(ge.meanLossRate(), within(0.006));
        // Independent loss at the same rate would give bursts of about 1/(1-0.0385) = 1.04 packets.
        assertThat(meanBurst).isGreaterThan(3);
    }

    @Test
    void gilbertElliottLossInTheGoodStateAlsoCounts() {
        GilbertElliott ge = new GilbertElliott(0.0, 1.0, 0.02, 1.0);
        long lost = dropped(feed(direction(LinkProfile.builder().burstLoss(ge).build(), SEED), 50_000, 100, MS));
        assertThat(lost).as("seed %d: only good-state loss, 2%% of 50000", SEED).isBetween(850L, 1150L);
    }

    @Test
    void delayIsAddedAndJitterWithoutReorderKeepsDeparturesMonotonic() {
        LinkProfile profile = LinkProfile.builder().delay(Duration.ofMillis(50)).jitter(Duration.ofMillis(20)).build();
        long[] departures = feed(direction(profile, SEED), 10_000, 100, MS / 10);
        long below = 0;
        for (int i = 0; i < departures.length; i++) {
            long sent = i * MS / 10;
            assertThat(departures[i]).as("seed %d: packet %d", SEED, i).isGreaterThanOrEqualTo(sent);
            below += departures[i] - sent < 50 * MS ? 1 : 0;
            if (i > 0) {
                assertThat(departures[i]).as("seed %d: packet %d must not overtake %d", SEED, i, i - 1)
                        .isGreaterThanOrEqualTo(departures[i - 1]);
            }
        }
        assertThat(below).as("jitter spreads departures below the mean delay too").isPositive();
    }

    @Test
    void jitterMayReorderWhenAllowed() {
        LinkProfile profile = LinkProfile.builder().delay(Duration.ofMillis(50))
                .jitter(Duration.ofMillis(20), JitterDistribution.NORMAL).jitterMayReorder(true).build();
        long[] departures = feed(direction(profile, SEED), 10_000, 100, MS / 10);
        assertThat(inversions(departures)).as("seed %d", SEED).isGreaterThan(1000);
        for (int i = 0; i < departures.length; i++) {
            long sent = i * MS / 10;
            assertThat(departures[i] - sent).as("normal jitter is cut at 3 sd").isBetween(0L, 110 * MS);
        }
    }

    @Test
    void reorderHoldsBackTheConfiguredShareOfPackets() {
        LinkDirection d = direction(LinkProfile.builder().delay(Duration.ofMillis(5))
                .reorder(0.1, Duration.ofMillis(10)).build(), SEED);
        long[] departures = feed(d, 20_000, 100, MS);
        long reordered = d.counters().snapshot("forward").reordered();

        assertThat(reordered).as("seed %d: 10%% of 20000", SEED).isBetween(1800L, 2200L);
        // Packets 1 ms apart, held 10 ms: each held packet is overtaken by the ~10 after it.
        assertThat(inversions(departures)).as("seed %d", SEED).isGreaterThanOrEqualTo(reordered);
        assertThat(inversions(feed(direction(LinkProfile.builder().delay(Duration.ofMillis(5)).build(), SEED),
                20_000, 100, MS))).as("no reordering configured").isZero();
    }

    @Test
    void duplicationCopiesTheConfiguredShare() {
        LinkDirection d = direction(LinkProfile.builder().duplicate(0.05).build(), SEED);
        int copies = 0;
        for (int i = 0; i < 20_000; i++) {
            long departure = d.admitDatagram(i * MS, 100);
            if (d.duplicateDeparture() >= 0) {
                copies++;
                assertThat(d.duplicateDeparture()).isEqualTo(departure);
            }
        }
        assertThat(copies).as("seed %d: 5%% of 20000", SEED).isBetween(850, 1150);
        assertThat(d.counters().snapshot("forward").duplicated()).isEqualTo(copies);
    }

    @Test
    void upDownScheduleDropsExactlyDuringDownPeriods() {
        UpDownSchedule schedule = new UpDownSchedule(Duration.ofMillis(400), Duration.ofMillis(200), Duration.ofMillis(100));
        LinkDirection d = direction(LinkProfile.builder().upDown(schedule).build(), SEED);
        long[] departures = feed(d, 1300, 100, MS);
        for (int i = 0; i < departures.length; i++) {
            // up 0-500 (offset 100 + up 400), down 500-700, up 700-1100, down 1100-1300
            boolean down = (i >= 500 && i < 700) || (i >= 1100);
            assertThat(departures[i] < 0).as("packet at %d ms", i).isEqualTo(down);
        }
        assertThat(d.counters().snapshot("forward").droppedDown()).isEqualTo(400);
    }

    @Test
    void rateLimiterSpacesPacketsAndDropsWhatOverflowsTheQueue() {
        // 8 Mbit/s: a 1000-byte packet takes 1 ms; the queue holds 10 packets' worth.
        LinkDirection d = direction(LinkProfile.builder().rate(8_000_000).queueLimit(10_000).build(), SEED);
        long[] departures = new long[50];
        for (int i = 0; i < departures.length; i++) {
            departures[i] = d.admitDatagram(0, 1000);
        }
        // The first leaves at once (1 ms to send), then up to 10 ms of backlog may wait.
        for (int i = 0; i < 10; i++) {
            assertThat(departures[i]).as("packet %d", i).isEqualTo((i + 1) * MS);
        }
        assertThat(dropped(departures)).isEqualTo(40);
        assertThat(d.counters().snapshot("forward").droppedQueue()).isEqualTo(40);
        // Once the queue drained, packets pass again.
        assertThat(d.admitDatagram(100 * MS, 1000)).isEqualTo(101 * MS);
    }

    @Test
    void rateLimitHoldsOverALongRun() {
        long rate = 100_000_000;
        LinkDirection d = direction(LinkProfile.builder().rate(rate).queueLimit(1 << 20).build(), SEED);
        // Offer 1400-byte packets at twice the rate for one virtual second.
        long spacing = 1400L * 8 * 1_000_000_000L / rate / 2;
        long lastDeparture = 0;
        long sentBytes = 0;
        for (long t = 0; t < 1_000_000_000L; t += spacing) {
            long departure = d.admitDatagram(t, 1400);
            if (departure >= 0) {
                sentBytes += 1400;
                lastDeparture = departure;
            }
        }
        double achieved = sentBytes * 8 * 1e9 / lastDeparture;
        assertThat(achieved).isCloseTo(rate, within(rate * 0.01));
    }

    @Test
    void streamChunksAreHeldWhileDownAndDelayedByLossNeverDropped() {
        UpDownSchedule schedule = new UpDownSchedule(Duration.ofMillis(100), Duration.ofMillis(100), Duration.ZERO);
        LinkDirection d = direction(LinkProfile.builder().delay(Duration.ofMillis(10)).loss(0.2).upDown(schedule).build(), SEED);
        long previous = Long.MIN_VALUE;
        for (int i = 0; i < 1000; i++) {
            long now = i * MS;
            long departure = d.admitChunk(now, 1000);
            assertThat(departure).as("seed %d: chunk %d", SEED, i).isGreaterThanOrEqualTo(now + 10 * MS);
            assertThat(departure).as("chunks keep their order").isGreaterThanOrEqualTo(previous);
            boolean down = (i / 100) % 2 == 1;
            if (down) {
                long nextUp = (i / 100 + 1) * 100 * MS;
                assertThat(departure).as("chunk %d held until the link is up at %d ms", i, nextUp / MS)
                        .isGreaterThanOrEqualTo(nextUp + 10 * MS);
            }
            previous = departure;
        }
        DirectionStats s = d.counters().snapshot("forward");
        assertThat(s.dropped()).isZero();
        assertThat(s.heldWhileDown()).isEqualTo(500);
        assertThat(s.delayedByLoss()).as("seed %d: 20%% of 1000", SEED).isBetween(150L, 250L);
    }

    @Test
    void streamLossDelaysByOneRetransmissionTimeout() {
        LinkDirection d = direction(LinkProfile.builder().loss(1.0).build(), SEED);
        assertThat(d.admitChunk(0, 1000)).isEqualTo(RTO);
        assertThat(d.admitChunk(MS, 1000)).isEqualTo(MS + RTO);
    }

    @Test
    void endOfStreamNeverOvertakesData() {
        LinkDirection d = direction(LinkProfile.builder().delay(Duration.ofMillis(10)).loss(1.0).build(), SEED);
        long data = d.admitChunk(0, 1000);
        assertThat(d.admitEndOfStream(MS)).isGreaterThanOrEqualTo(data);
    }

    private static long inversions(long[] departures) {
        long count = 0;
        long latest = Long.MIN_VALUE;
        for (long d : departures) {
            if (d < 0) {
                continue;
            }
            if (d < latest) {
                count++;
            }
            latest = Math.max(latest, d);
        }
        return count;
    }
}
