package org.fjm2.norm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.netty.buffer.Unpooled;
import org.fjm2.norm.api.LossReason;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.transport.LossInjector;
import org.fjm2.norm.transport.LossyTransport;
import org.junit.jupiter.api.Test;

/**
 * A receiver hears nothing of objects 5..9 while a sender with a four-object cache keeps sending: by the time its
 * NACKs get through, the sender no longer has them. The receiver must be told, object by object, through the
 * loss callback (in order, in place of the objects), and receive everything else.
 */
class UnrecoverableObjectTest {

    @Test
    void objectsEvictedFromTheSendersCacheAreReportedLostByIdInOrder() throws Exception {
        NormConfig base = TestGroups.fresh();
        ObjectCollector deaf = new ObjectCollector();
        ObjectCollector healthy = new ObjectCollector();
        int total = 40;
        try (NormSession deafRx = NormSession.open(base.toBuilder().nodeId(31).build(), deaf, 1,
                     LossyTransport.around(LossInjector.matching(LossPredicates.objectsRelativeToFirst(5, 10)), null));
             NormSession healthyRx = NormSession.open(base.toBuilder().nodeId(32).build(), healthy, 2);
             NormSession tx = NormSession.open(base.toBuilder().nodeId(30).txCacheObjects(4)
                     .txCacheBytes(1024 * 1024).maxObjectSize(1024 * 1024).maxHold(java.time.Duration.ofSeconds(2))
                     .build(), null, 3)) {
            int firstId = -1;
            for (int i = 0; i < total; i++) {
                byte[] content = TestObjects.content(9, i, 3000);
                assertThat(tx.enqueue(Unpooled.wrappedBuffer(content), null, 4, 30, TimeUnit.SECONDS))
                        .isGreaterThanOrEqualTo(0);
            }
            boolean deafDone = deaf.await(total, 20, TimeUnit.SECONDS);
            assertThat(deafDone).as("deaf receiver done: received %s lost %s; %s / sender %s",
                    deaf.received().stream().map(ObjectCollector.Received::objectId).collect(Collectors.toList()),
                    deaf.lost(), deafRx.counters(), tx.counters()).isTrue();
            assertThat(healthy.await(total, 30, TimeUnit.SECONDS)).isTrue();
            assertThat(healthy.lost()).isEmpty();

            firstId = healthy.received().get(0).objectId();
            int first = firstId;
            List<Integer> lostIds = deaf.lost().stream().map(ObjectCollector.Lost::objectId).collect(Collectors.toList());
            List<Integer> expected = java.util.stream.IntStream.range(5, 10).mapToObj(k -> (first + k) & 0xFFFF)
                    .collect(Collectors.toList());
            System.out.printf("deaf receiver: lost %s (%s); counters %s%n", lostIds, deaf.lost().get(0).reason(),
                    deafRx.counters());
            assertThat(lostIds).isEqualTo(expected);
            assertThat(deaf.lost()).allMatch(l -> l.reason() == LossReason.SQUELCHED);
            assertThat(deaf.received()).hasSize(total - 5);
            assertThat(deaf.received().stream().map(ObjectCollector.Received::objectId))
                    .doesNotContainAnyElementsOf(expected);
        }
    }
}
