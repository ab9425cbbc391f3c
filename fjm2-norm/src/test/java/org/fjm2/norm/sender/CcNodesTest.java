package org.fjm2.norm.sender;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.fjm2.norm.codec.NormWire;
import org.junit.jupiter.api.Test;

/** CLR election and the CC node list (RFC 5740 section 5.5.2, as NRL NORM elects). */
class CcNodesTest {

    static final int RTT = NormWire.CC_FLAG_RTT;

    @Test
    void theFirstFeedbackElectsTheClrAndALowerRateTakesOver() {
        CcNodes n = new CcNodes();
        assertThat(n.hasClr()).isFalse();
        assertThat(n.onFeedback(1, RTT, 0.01, 0.01, 100_000, 1, 0)).isTrue();
        assertThat(n.clrId()).isEqualTo(1);
        assertThat(n.onFeedback(2, RTT, 0.01, 0.01, 200_000, 1, 0)).as("a higher rate: a candidate").isFalse();
        assertThat(n.clrId()).isEqualTo(1);
        assertThat(n.onFeedback(3, RTT, 0.01, 0.02, 50_000, 1, 0)).as("a lower rate: the new CLR").isTrue();
        assertThat(n.clrId()).isEqualTo(3);
        assertThat(n.clrRate()).isEqualTo(50_000);
        assertThat(n.activeCount()).as("the old CLR stays as a candidate").isEqualTo(3);
    }

    @Test
    void withinTenPercentTheLongerRoundTripWins() {
        CcNodes n = new CcNodes();
        n.onFeedback(1, RTT, 0.010, 0.01, 100_000, 1, 0);
        assertThat(n.onFeedback(2, RTT, 0.005, 0.01, 105_000, 1, 0)).isFalse();
        assertThat(n.onFeedback(3, RTT, 0.020, 0.01, 105_000, 1, 0)).isTrue();
        assertThat(n.clrId()).isEqualTo(3);
    }

    @Test
    void theClrsOwnFeedbackUpdatesItUnlessItIsNotNewer() {
        CcNodes n = new CcNodes();
        n.onFeedback(1, RTT, 0.01, 0.01, 100_000, 5, 0);
        assertThat(n.onFeedback(1, RTT, 0.01, 0.01, 300_000, 6, 0)).isTrue();
        assertThat(n.clrRate()).as("the CLR's rate may rise").isEqualTo(300_000);
        assertThat(n.onFeedback(1, RTT, 0.01, 0.01, 10_000, 6, 0)).as("a duplicate").isFalse();
        assertThat(n.clrRate()).isEqualTo(300_000);
    }

    @Test
    void atMostFiveNodesTheWorstCandidateMakesRoom() {
        CcNodes n = new CcNodes();
        n.onFeedback(1, RTT, 0.01, 0.01, 10_000, 1, 0);
        for (int id = 2; id <= 20; id++) {
            n.onFeedback(id, RTT, 0.01, 0.01, 100_000 + id * 1000, 1, 0);
        }
        assertThat(n.activeCount()).isEqualTo(CcNodes.MAX_NODES);
        n.onFeedback(99, RTT, 0.01, 0.01, 20_000, 1, 0);
        ByteBuf list = Unpooled.buffer(64);
        int length = n.write(list, 0, false);
        assertThat(length).isEqualTo(CcNodes.MAX_NODES * 8);
        assertThat(list.getInt(0)).as("CLR first").isEqualTo(1);
        assertThat(list.getByte(4) & 0xFF).isEqualTo(NormWire.CC_FLAG_CLR | NormWire.CC_FLAG_RTT);
        boolean listed99 = false;
        for (int i = 1; i < CcNodes.MAX_NODES; i++) {
            listed99 |= list.getInt(i * 8) == 99;
            assertThat(list.getByte(i * 8 + 4) & NormWire.CC_FLAG_PLR).isNotZero();
        }
        assertThat(listed99).as("a lower rate replaced the highest candidate").isTrue();
    }

    @Test
    void aSilentClrBecomesInactive() {
        CcNodes n = new CcNodes();
        n.onFeedback(1, RTT, 0.01, 0.5, 1_000, 1, 0);
        n.expire(CcNodes.INACTIVE_MIN_NANOS, 0.01);
        assertThat(n.hasClr()).isTrue();
        n.expire(CcNodes.INACTIVE_MIN_NANOS + 1, 0.01);
        assertThat(n.hasClr()).as("silent longer than its inactivity time").isFalse();
        assertThat(n.onFeedback(2, RTT, 0.01, 0.01, 100_000, 1, CcNodes.INACTIVE_MIN_NANOS + 2)).isTrue();
        assertThat(n.clrId()).as("whoever answers next is CLR").isEqualTo(2);
    }
}
