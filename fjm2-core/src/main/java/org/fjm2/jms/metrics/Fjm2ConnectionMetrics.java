package org.fjm2.jms.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import jakarta.jms.Connection;
import org.fjm2.jms.Fjm2Connection;
import org.fjm2.jms.management.ConnectionStatistics;
import org.fjm2.jms.management.NormCountersData;
import org.fjm2.norm.api.NormCounters;

import java.util.List;
import java.util.Objects;
import java.util.function.ToLongFunction;

/**
 * Micrometer meters of one FJM2 connection: the counters its MBean shows ({@code fjm2.connection.*}) and every
 * NORM engine counter ({@code fjm2.norm.*}, e.g. {@code fjm2.norm.nacks.sent}), all function counters read when
 * the registry publishes, tagged {@value #CONNECTION_TAG}={@code <node id>} plus the caller's tags.
 *
 * <pre>{@code
 * Connection connection = factory.createConnection();
 * new Fjm2ConnectionMetrics(connection).bindTo(registry);
 * }</pre>
 *
 * Micrometer is an optional dependency of fjm2-core: only this package needs it.
 */
public final class Fjm2ConnectionMetrics implements MeterBinder {

    /** The tag that tells connections apart: the transport node id (unsigned decimal), unique in the group. */
    public static final String CONNECTION_TAG = "connection";
    public static final String CONNECTION_PREFIX = "fjm2.connection.";
    public static final String NORM_PREFIX = "fjm2.norm.";

    private static final List<Counted> CONNECTION_COUNTERS = List.of(
            new Counted("messages.sent", BaseUnits.MESSAGES, "messages accepted by send()",
                    ConnectionStatistics::getMessagesSent),
            new Counted("message.bytes.sent", BaseUnits.BYTES, "encoded bytes of the messages sent",
                    ConnectionStatistics::getMessageBytesSent),
            new Counted("batches.sent", BaseUnits.OBJECTS, "batches handed to the transport",
                    ConnectionStatistics::getBatchesSent),
            new Counted("messages.dropped.at.send", BaseUnits.MESSAGES,
                    "messages whose batch the transport refused after send() returned",
                    ConnectionStatistics::getMessagesDroppedAtSend),
            new Counted("messages.received", BaseUnits.MESSAGES, "messages decoded for a local consumer",
                    ConnectionStatistics::getMessagesReceived),
            new Counted("messages.delivered", BaseUnits.MESSAGES, "messages handed to the application",
                    ConnectionStatistics::getMessagesDelivered),
            new Counted("messages.lost", BaseUnits.MESSAGES, "messages missing from producers' sequences",
                    ConnectionStatistics::getMessagesLost),
            new Counted("duplicates.discarded", BaseUnits.MESSAGES, "duplicate messages discarded",
                    ConnectionStatistics::getDuplicatesDiscarded),
            new Counted("malformed.batches", BaseUnits.OBJECTS, "objects that did not parse as a batch",
                    ConnectionStatistics::getMalformedBatches),
            new Counted("malformed.messages", BaseUnits.MESSAGES, "records that did not parse as a message",
                    ConnectionStatistics::getMalformedMessages),
            new Counted("implausible.sequences", BaseUnits.MESSAGES,
                    "messages dropped for an implausible sequence jump",
                    ConnectionStatistics::getImplausibleSequences),
            new Counted("state.evictions", BaseUnits.OBJECTS, "senders and streams forgotten at a state cap",
                    ConnectionStatistics::getStateEvictions),
            new Counted("messages.expired", BaseUnits.MESSAGES, "messages not delivered because they expired",
                    ConnectionStatistics::getMessagesExpired),
            new Counted("consumer.overflow.drops", BaseUnits.MESSAGES, "messages dropped by full consumer queues",
                    ConnectionStatistics::getConsumerOverflowDrops),
            new Counted("redelivery.drops", BaseUnits.MESSAGES, "messages dropped after maxRedeliveries",
                    ConnectionStatistics::getRedeliveryDrops),
            new Counted("objects.sent", BaseUnits.OBJECTS, "transport objects sent",
                    ConnectionStatistics::getObjectsSent),
            new Counted("bytes.sent", BaseUnits.BYTES, "payload bytes of the objects sent",
                    ConnectionStatistics::getBytesSent),
            new Counted("objects.received", BaseUnits.OBJECTS, "complete transport objects received",
                    ConnectionStatistics::getObjectsReceived),
            new Counted("bytes.received", BaseUnits.BYTES, "payload bytes of the objects received",
                    ConnectionStatistics::getBytesReceived),
            new Counted("nacks.sent", BaseUnits.EVENTS, "NACKs sent as a receiver",
                    ConnectionStatistics::getNacksSent),
            new Counted("nacks.received", BaseUnits.EVENTS, "NACKs received as a sender",
                    ConnectionStatistics::getNacksReceived),
            new Counted("repairs.sent", BaseUnits.EVENTS, "repair packets sent",
                    ConnectionStatistics::getRepairsSent),
            new Counted("objects.lost", BaseUnits.OBJECTS, "transport objects reported lost",
                    ConnectionStatistics::getObjectsLost));

    private final ConnectionStatistics statistics;
    private final Tags tags;

    /** @param connection an FJM2 connection (made by Fjm2ConnectionFactory) */
    public Fjm2ConnectionMetrics(Connection connection, Tag... tags) {
        this(fjm2(connection).statistics(), tags);
    }

    public Fjm2ConnectionMetrics(ConnectionStatistics statistics, Tag... tags) {
        this.statistics = Objects.requireNonNull(statistics, "statistics");
        this.tags = Tags.of(tags).and(CONNECTION_TAG, Long.toString(statistics.getNodeId()));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (Counted c : CONNECTION_COUNTERS) {
            FunctionCounter.builder(CONNECTION_PREFIX + c.name, statistics, s -> c.value.applyAsLong(s))
                    .baseUnit(c.unit).description(c.description).tags(tags).register(registry);
        }
        Gauge.builder(CONNECTION_PREFIX + "pending.objects", statistics, ConnectionStatistics::getPendingObjects)
                .baseUnit(BaseUnits.OBJECTS).description("objects accepted by the transport, not yet transmitted")
                .tags(tags).register(registry);
        for (NormCounters.Counter counter : NormCounters.Counter.values()) {
            FunctionCounter.builder(normMeterName(counter), statistics, s -> s.normCounter(counter))
                    .description("NORM engine counter " + NormCountersData.name(counter))
                    .tags(tags).register(registry);
        }
    }

    /** The meter of a NORM counter: {@code NACKS_SENT} is {@code fjm2.norm.nacks.sent}. */
    public static String normMeterName(NormCounters.Counter counter) {
        return NORM_PREFIX + NormCountersData.name(counter).replace('_', '.');
    }

    private static Fjm2Connection fjm2(Connection connection) {
        if (connection instanceof Fjm2Connection c) {
            return c;
        }
        throw new IllegalArgumentException("not an FJM2 connection: " + connection.getClass().getName()
                + " (a pooling or caching wrapper: bind the connection it wraps)");
    }

    private record Counted(String name, String unit, String description, ToLongFunction<ConnectionStatistics> value) {
    }
}
