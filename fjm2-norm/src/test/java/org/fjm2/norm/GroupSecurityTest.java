package org.fjm2.norm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.Unpooled;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.security.GroupKey;
import org.fjm2.norm.security.PacketProtection;
import org.fjm2.norm.transport.LossInjector;
import org.fjm2.norm.transport.LossyTransport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A protected group: members with the key exchange objects (repair included), a node without the key neither
 * reads what they send nor gets its own objects accepted.
 */
class GroupSecurityTest {

    @ParameterizedTest
    @EnumSource(PacketProtection.Mode.class)
    void membersTalkOutsidersCanNeitherReadNorInject(PacketProtection.Mode mode) throws Exception {
        byte[] key = new byte[32];
        new SplittableRandom(3).nextBytes(key);
        byte[] wrong = new byte[32];
        new SplittableRandom(4).nextBytes(wrong);
        NormConfig base = TestGroups.fresh();
        ObjectCollector member = new ObjectCollector();
        ObjectCollector outsider = new ObjectCollector();
        int objects = 50;
        try (NormSession rx = NormSession.open(base.toBuilder().nodeId(41).protection(mode, GroupKey.of(key))
                     .build(), member, 1, LossyTransport.around(LossInjector.random(0.1, 41), null));
             NormSession spy = NormSession.open(base.toBuilder().nodeId(42).protection(mode, GroupKey.of(wrong)).build(),
                     outsider, 2);
             NormSession tx = NormSession.open(base.toBuilder().nodeId(40).protection(mode, GroupKey.of(key)).build(),
                     null, 3)) {
            for (int i = 0; i < objects; i++) {
                tx.enqueue(Unpooled.wrappedBuffer(TestObjects.content(1, i, 20_000)), null, 4, 5,
                        TimeUnit.SECONDS);
            }
            assertThat(member.await(objects, 30, TimeUnit.SECONDS)).as("%s", rx.counters()).isTrue();
            assertThat(member.lost()).isEmpty();
            // the outsider injects: members must not take its object
            spy.enqueue(Unpooled.wrappedBuffer(new byte[1000]), null, 4, 5, TimeUnit.SECONDS);
            assertThat(spy.awaitFlushed(java.time.Duration.ofSeconds(10))).isTrue();
            assertThat(member.received()).hasSize(objects);
            assertThat(member.received()).allMatch(r -> r.senderId() == 40);
            assertThat(outsider.received()).isEmpty();
            assertThat(spy.counters().get(Counter.UNAUTHENTIC_DROPPED)).as("outsider dropped what it heard").isGreaterThan(0);
            assertThat(rx.counters().get(Counter.UNAUTHENTIC_DROPPED)).as("member dropped the injection").isGreaterThan(0);
        }
    }
}
