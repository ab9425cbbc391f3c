package org.fjm2.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.fjm2.admin.testing.CapturedLog;
import org.junit.jupiter.api.Test;

/** Every refusal is counted; the log gets one line per reason and interval, saying how many it left out. */
class RefusalsTest {

    @Test
    void countsEveryRefusalAndLogsEachReasonAtMostOncePerInterval() {
        AtomicLong clock = new AtomicLong(1_000_000);
        Refusals refusals = new Refusals(clock::get);
        try (CapturedLog log = new CapturedLog(Refusals.class)) {
            for (int i = 0; i < 1000; i++) {
                refusals.refuse(Refusals.Reason.NOT_OWNER, "POST /api/nodes", "node a was registered with another"
                        + " token", "192.0.2.7");
            }
            refusals.refuse(Refusals.Reason.FORBIDDEN_ADDRESS, "POST /api/nodes", "host 127.0.0.1 is a loopback"
                    + " address", "192.0.2.8");
            assertThat(log.lines()).hasSize(2);
            assertThat(log.lines().get(0)).startsWith("WARN refused POST /api/nodes from 192.0.2.7 (not owner): node a")
                    .contains("1 refused for this reason so far; 0 not logged");
            assertThat(log.lines().get(1)).contains("(forbidden address): host 127.0.0.1 is a loopback address");

            clock.addAndGet(Refusals.LOG_INTERVAL_MILLIS - 1);
            refusals.refuse(Refusals.Reason.NOT_OWNER, "DELETE /api/nodes/a", "another token", "192.0.2.7");
            assertThat(log.lines()).as("still inside the interval").hasSize(2);
            clock.addAndGet(1);
            refusals.refuse(Refusals.Reason.NOT_OWNER, "DELETE /api/nodes/a", "another token", "192.0.2.7");
            assertThat(log.lines()).hasSize(3);
            assertThat(log.lines().get(2)).contains("1002 refused for this reason so far; 1000 not logged");
        }
        assertThat(refusals.count(Refusals.Reason.NOT_OWNER)).isEqualTo(1002);
        assertThat(refusals.count(Refusals.Reason.FORBIDDEN_ADDRESS)).isEqualTo(1);
        assertThat(refusals.counts()).containsEntry(Refusals.Reason.UNAUTHORIZED, 0L).hasSize(6);
    }
}
