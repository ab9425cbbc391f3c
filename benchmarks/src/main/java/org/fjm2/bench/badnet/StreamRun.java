package org.fjm2.bench.badnet;

import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.fjm2.bench.artemis.EmbeddedArtemis;
import org.fjm2.testkit.linkem.LinkProfile;
import org.fjm2.testkit.linkem.LinkStats;

/**
 * One stream over one {@link EmulatedPath}: a subscriber connection with a {@link SequenceReceiver} as its
 * MessageListener and ExceptionListener, a publisher connection running a {@link StreamPublisher}, then a bounded
 * wait for the subscriber to catch up (every message arrived or reported lost).
 */
public final class StreamRun {

    private StreamRun() {
    }

    /**
     * The outcome of a stream.
     *
     * @param publishNanos time the publisher took to send everything
     * @param caughtUp     whether every message arrived or was reported lost within the tail wait
     * @param completionNanos time from the first send to the last arrival
     * @param link         the emulated link's counters at the end
     */
    public record Result(EmulatedPath.Kind kind, SequenceReceiver.Summary summary, long publishNanos,
                         long completionNanos, boolean caughtUp, LinkStats link) {
    }

    /**
     * Opens one fresh path per kind over {@code profile} (kind i's link seeded with {@code seed + i}), runs the same
     * paced or unpaced stream over all of them at once, closes them and returns the results in the kinds' order.
     */
    public static List<Result> runOverFreshPaths(List<EmulatedPath.Kind> kinds, LinkProfile profile, long seed,
                                                 EmulatedPath.Settings settings, EmbeddedArtemis broker,
                                                 StreamPublisher publisher, int count, Duration tailWait)
            throws Exception {
        List<EmulatedPath> paths = new ArrayList<>();
        try {
            for (int i = 0; i < kinds.size(); i++) {
                paths.add(EmulatedPath.open(kinds.get(i), profile, seed + i, settings, broker));
            }
            return runSideBySide(paths, publisher, count, tailWait);
        } finally {
            paths.forEach(EmulatedPath::close);
        }
    }

    /**
     * Runs several streams at once, one per path (each over its own emulated link), and returns their results in
     * the order given: used where the systems' paced streams are light enough to share the machine.
     */
    public static List<Result> runSideBySide(List<EmulatedPath> paths, StreamPublisher publisher, int count,
                                             Duration tailWait) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(paths.size());
        try {
            List<Future<Result>> futures = new ArrayList<>();
            for (EmulatedPath path : paths) {
                futures.add(pool.submit(() -> run(path, publisher, count, tailWait)));
            }
            List<Result> results = new ArrayList<>();
            for (Future<Result> f : futures) {
                try {
                    results.add(f.get());
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof Exception cause ? cause : e;
                }
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Runs {@code publisher}'s {@code count} messages over {@code path} and waits at most {@code tailWait} after the
     * last send for the subscriber.
     */
    public static Result run(EmulatedPath path, StreamPublisher publisher, int count, Duration tailWait)
            throws Exception {
        SequenceReceiver receiver = new SequenceReceiver(count);
        try (Connection subscriber = path.subscriberFactory().createConnection();
             Connection publishing = path.publisherFactory().createConnection()) {
            subscriber.setExceptionListener(receiver);
            Session subSession = subscriber.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageConsumer consumer = subSession.createConsumer(subSession.createTopic(path.topic()));
            consumer.setMessageListener(receiver);
            subscriber.start();
            Session pubSession = publishing.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic topic = pubSession.createTopic(path.topic());
            MessageProducer producer = pubSession.createProducer(topic);
            long start = System.nanoTime();
            long publishNanos = publisher.publish(pubSession, producer);
            boolean caughtUp = receiver.awaitAccounted(tailWait.toNanos());
            SequenceReceiver.Summary summary = receiver.summary();
            long[] arrivals = summary.arrivalNanos();
            long completion = arrivals.length == 0 ? 0 : arrivals[arrivals.length - 1] - start;
            return new Result(path.kind(), summary, publishNanos, completion, caughtUp, path.linkStats());
        }
    }
}
