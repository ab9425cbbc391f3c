package org.fjm2.bench.aeron;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.aeron.FragmentAssembler;
import io.aeron.Subscription;
import io.aeron.driver.status.SystemCounterDescriptor;
import org.agrona.concurrent.IdleStrategy;
import org.fjm2.bench.jms.DeliveryWindow;
import org.fjm2.bench.jms.SequenceCheck;
import org.fjm2.bench.jms.SubscriberCommands;

/**
 * The subscriber side of {@code fjm2 bench throughput} for Aeron, in its own JVM: {@code CHANNEL STREAM N} starts N
 * embedded media drivers, one per subscriber (so that each subscriber is a receiver of its own on the network, with
 * its own socket, status messages and NAKs, as each FJM2 subscriber has its own NORM session; N subscriptions on one
 * driver would share one receiver and one copy of the data), and one subscription on each. One thread polls them all
 * in turn, the Aeron way of serving many subscriptions (an agent's duty cycle; a polling thread per subscription
 * would only compete for the two cores), handing each subscription's reassembled messages to its
 * {@link SequenceCheck} and {@link DeliveryWindow}. Prints READY once every subscription is added, then answers the
 * commands of {@link SubscriberCommands}; the counters after DRAINED are the drivers' own, summed. End of input
 * closes everything and exits.
 */
public final class AeronSubscribersMain {

    /** Driver counters reported after DRAINED: the repair work, and data given up (a gap filled with padding). */
    static final List<SystemCounterDescriptor> COUNTERS = List.of(SystemCounterDescriptor.NAK_MESSAGES_SENT,
            SystemCounterDescriptor.LOSS_GAP_FILLS, SystemCounterDescriptor.INVALID_PACKETS,
            SystemCounterDescriptor.ERRORS);

    private AeronSubscribersMain() {
    }

    public static void main(String[] args) throws Exception {
        String channel = args[0];
        int streamId = Integer.parseInt(args[1]);
        int n = Integer.parseInt(args[2]);
        List<EmbeddedAeron> drivers = new ArrayList<>();
        List<Subscription> subscriptions = new ArrayList<>();
        List<FragmentAssembler> handlers = new ArrayList<>();
        SubscriberCommands commands = new SubscriberCommands(n, () -> EmbeddedAeron.summary(drivers, COUNTERS));
        Thread poller = null;
        try {
            for (int i = 0; i < n; i++) {
                EmbeddedAeron driver = EmbeddedAeron.start("sub" + i);
                drivers.add(driver);
                subscriptions.add(driver.aeron().addSubscription(channel, streamId));
                SequenceCheck check = commands.check(i);
                DeliveryWindow window = commands.window(i);
                handlers.add(new FragmentAssembler((buffer, offset, length, header) -> {
                    check.record(buffer.getLong(offset));
                    window.delivered();
                }));
            }
            poller = new Thread(() -> poll(subscriptions, handlers), "aeron-subscribers");
            poller.setDaemon(true);
            poller.start();
            System.out.println("READY");
            commands.serve(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)));
        } catch (Exception e) {
            System.out.println("FAIL " + e);
            throw e;
        } finally {
            if (poller != null) {
                poller.interrupt();
                poller.join(1000);
            }
            for (EmbeddedAeron driver : drivers) {
                driver.close();
            }
        }
    }

    /** The polling duty cycle: every subscription in turn, idling when none had anything. */
    private static void poll(List<Subscription> subscriptions, List<FragmentAssembler> handlers) {
        IdleStrategy idle = AeronBaseline.idleStrategy();
        int n = subscriptions.size();
        while (!Thread.currentThread().isInterrupted()) {
            int work = 0;
            for (int i = 0; i < n; i++) {
                work += subscriptions.get(i).poll(handlers.get(i), AeronBaseline.FRAGMENT_LIMIT);
            }
            idle.idle(work);
        }
    }
}
