package org.fjm2.jms;

import org.fjm2.norm.util.LogLimiter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.LongSupplier;

/**
 * Reports messages lost for good as the design asks: a counter, a log line and a call of the connection's
 * ExceptionListener — never only a counter, also when no listener is set. A broken or hostile sender can cause
 * reports by the thousand, so the log gets at most one line per interval: the report at hand, plus how many reports
 * and messages were left out since the previous line. The listener still gets every report (when the connection
 * has consumers: only they can miss anything). One owner thread, the receive thread.
 */
final class LossReports {

    private static final Logger LOG = LoggerFactory.getLogger(LossReports.class);

    private final ConnectionCounters counters;
    private final SubscriptionTable subscriptions;
    private final Inbound.Owner owner;
    private final LogLimiter log;
    private long messagesLeftOut;
    private long unknownCountsLeftOut;

    LossReports(ConnectionCounters counters, SubscriptionTable subscriptions, Inbound.Owner owner,
                LongSupplier nanoClock) {
        this.counters = counters;
        this.subscriptions = subscriptions;
        this.owner = owner;
        this.log = new LogLimiter(LogLimiter.DEFAULT_INTERVAL_NANOS, nanoClock);
    }

    void report(MessagesLostException lost) {
        long count = lost.lostMessages();
        if (count > 0) {
            counters.messagesLost.add(count);
        }
        if (log.allow()) {
            long reportsLeftOut = log.takeSuppressed();
            if (reportsLeftOut == 0) {
                LOG.warn(lost.getMessage());
            } else {
                LOG.warn("{} [{} more loss report(s) since the last line: {} message(s){}]", lost.getMessage(),
                        reportsLeftOut, messagesLeftOut,
                        unknownCountsLeftOut == 0 ? "" : " and " + unknownCountsLeftOut + " of unknown count");
            }
            messagesLeftOut = 0;
            unknownCountsLeftOut = 0;
        } else if (count > 0) {
            messagesLeftOut += count;
        } else {
            unknownCountsLeftOut++;
        }
        if (subscriptions.consumerCount() > 0) {
            owner.reportAsync(lost);
        }
    }
}
