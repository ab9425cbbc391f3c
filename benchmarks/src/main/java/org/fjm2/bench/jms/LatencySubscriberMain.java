package org.fjm2.bench.jms;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import io.aeron.FragmentAssembler;
import io.aeron.Subscription;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.IdleStrategy;
import org.fjm2.bench.aeron.AeronBaseline;
import org.fjm2.bench.aeron.EmbeddedAeron;
import org.fjm2.bench.udp.RawUdp;

/**
 * The receiver side of {@code fjm2 bench latency}, in its own JVM: {@code URL TOPIC WARMUP TOTAL}. Each message
 * carries its number {@code seq} and {@code t}, the {@link System#nanoTime()} at which the publisher <em>meant</em> to
 * send it (CLOCK_MONOTONIC, shared by all processes on Linux); the one-way latency {@code now - t} of messages
 * WARMUP..TOTAL-1 goes into an HdrHistogram. URL is a JMS URL (norm://, tcp://), {@code udp://GROUP:PORT?interface=IF}
 * for raw UDP multicast datagrams holding seq and t as two longs, or an Aeron channel ({@code aeron:udp?...}; TOPIC
 * is then the stream id) whose messages hold seq and t as their first two longs, received through an embedded media
 * driver and polled by one thread ({@link AeronBaseline}). Prints READY once subscribed; on the input line END waits
 * for message TOTAL-1 (or {@link SubscriberCommands#DRAIN_IDLE_NANOS} of silence) and prints
 * {@code RESULT received gaps duplicates p50 p99 p99.9 max} (microseconds), then exits.
 */
public final class LatencySubscriberMain {

    /** Highest latency the histogram holds: one minute, in nanoseconds. */
    static final long HIGHEST_NANOS = 60_000_000_000L;
    /** Histogram precision: 3 significant digits. */
    static final int DIGITS = 3;

    private final SequenceCheck check = new SequenceCheck();
    private final Histogram histogram = new Histogram(HIGHEST_NANOS, DIGITS);
    private final long warmup;
    private final long total;

    private LatencySubscriberMain(long warmup, long total) {
        this.warmup = warmup;
        this.total = total;
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        LatencySubscriberMain main = new LatencySubscriberMain(Long.parseLong(args[2]), Long.parseLong(args[3]));
        try {
            if (url.startsWith("udp://")) {
                main.receiveUdp(URI.create(url));
            } else if (url.startsWith("aeron:")) {
                main.receiveAeron(url, Integer.parseInt(args[1]));
            } else {
                main.receiveJms(url, args[1]);
            }
        } catch (Exception e) {
            System.out.println("FAIL " + e);
            throw e;
        }
    }

    /** Called by the single receiving thread. */
    private void onMessage(long seq, long intendedSendNanos) {
        long latency = System.nanoTime() - intendedSendNanos;
        check.record(seq);
        if (seq >= warmup && seq < total) {
            histogram.recordValue(Math.min(Math.max(latency, 0), HIGHEST_NANOS));
        }
    }

    private void receiveJms(String url, String topic) throws Exception {
        try (Connection c = ConnectionFactories.forUrl(url).createConnection()) {
            Session s = c.createSession(false, Session.DUPS_OK_ACKNOWLEDGE);
            MessageConsumer consumer = s.createConsumer(s.createTopic(topic));
            consumer.setMessageListener(m -> {
                try {
                    onMessage(m.getLongProperty("seq"), m.getLongProperty("t"));
                } catch (jakarta.jms.JMSException e) {
                    throw new IllegalStateException(e);
                }
            });
            c.start();
            awaitEndAndReport();
        }
    }

    private void receiveUdp(URI url) throws Exception {
        String interfaceName = url.getQuery() == null ? "lo" : url.getQuery().replaceFirst("^interface=", "");
        try (DatagramChannel rx = RawUdp.receiver(true, url.getHost(), interfaceName, url.getPort())) {
            Thread reader = new Thread(() -> {
                ByteBuffer buf = ByteBuffer.allocateDirect(RawUdp.MAX_DATAGRAM);
                try {
                    while (true) {
                        buf.clear();
                        rx.receive(buf);
                        onMessage(buf.getLong(0), buf.getLong(8));
                    }
                } catch (IOException e) {
                    // closed: done
                }
            }, "udp-latency-reader");
            reader.setDaemon(true);
            reader.start();
            awaitEndAndReport();
        }
    }

    private void receiveAeron(String channel, int streamId) throws Exception {
        try (EmbeddedAeron embedded = EmbeddedAeron.start("latency");
             Subscription subscription = embedded.aeron().addSubscription(channel, streamId)) {
            FragmentAssembler handler = new FragmentAssembler(
                    (buffer, offset, length, header) -> onMessage(buffer.getLong(offset), buffer.getLong(offset + 8)));
            Thread poller = new Thread(() -> {
                IdleStrategy idle = AeronBaseline.idleStrategy();
                while (!Thread.currentThread().isInterrupted()) {
                    idle.idle(subscription.poll(handler, AeronBaseline.FRAGMENT_LIMIT));
                }
            }, "aeron-latency-poller");
            poller.setDaemon(true);
            poller.start();
            try {
                awaitEndAndReport();
            } finally {
                poller.interrupt();
                poller.join(1000);
            }
        }
    }

    private void awaitEndAndReport() throws Exception {
        System.out.println("READY");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null && !line.trim().equals("END")) {
            System.out.println("FAIL unknown command " + line);
        }
        long lastReceived = -1;
        long lastProgress = System.nanoTime();
        while (check.next() < total && System.nanoTime() - lastProgress < SubscriberCommands.DRAIN_IDLE_NANOS) {
            if (check.received() != lastReceived) {
                lastReceived = check.received();
                lastProgress = System.nanoTime();
            }
            Thread.sleep(5);
        }
        // the receiving thread stops writing once the last message is in: a copy is consistent enough
        Histogram h = histogram.copy();
        long missing = Math.max(0, total - check.next());
        System.out.println(String.format(Locale.ROOT, "RESULT %d %d %d %.1f %.1f %.1f %.1f", check.received(),
                check.gaps() + missing, check.duplicates(), h.getValueAtPercentile(50) / 1e3,
                h.getValueAtPercentile(99) / 1e3, h.getValueAtPercentile(99.9) / 1e3, h.getMaxValue() / 1e3));
    }
}
