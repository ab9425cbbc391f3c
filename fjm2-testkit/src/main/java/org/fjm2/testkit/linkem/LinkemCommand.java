package org.fjm2.testkit.linkem;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.fjm2.util.Quantities;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code fjm2 linkem}: runs a {@link LinkEmulator} from the command line until interrupted (or for
 * {@code --duration}), logging a status line periodically and the final counters on exit.
 */
@Command(name = "linkem",
        mixinStandardHelpOptions = true,
        modelTransformer = ImpairmentOptions.class,
        sortOptions = false,
        description = {
            "Userspace link emulator: relays UDP, multicast or TCP between two sides and impairs each direction"
                + " (rate, delay, jitter, loss, burst loss, reordering, duplication, up/down schedule).",
            "Impairment options apply both ways unless a --reverse-... option (or --reverse-perfect) sets the"
                + " reverse direction apart. Prints a status line periodically; stops on Ctrl-C or SIGTERM and"
                + " prints the final counters.",
            ""},
        footer = {"", "Examples:",
            "  fjm2 linkem --mode udp --listen :9000 --target 127.0.0.1:9001 --rate 10mbit --delay 40ms --loss 1%% --seed 42",
            "  fjm2 linkem --mode mcast --side-a 239.1.1.1:7001@lo --side-b 239.1.1.1:7002@lo --delay 25ms --ge 1%%,30%%,0,100%%",
            "  fjm2 linkem --mode tcp --listen :61617 --target 127.0.0.1:61616 --delay 50ms --updown 4s/2s"})
public final class LinkemCommand implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger(LinkemCommand.class);

    /** Default interval of the status line. */
    public static final Duration DEFAULT_STATUS_INTERVAL = Duration.ofSeconds(2);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--mode", required = true, paramLabel = "udp|mcast|tcp",
            description = "udp: relay datagrams; mcast: bridge two multicast groups; tcp: relay connections.")
    String mode;

    @Option(names = "--listen", paramLabel = "HOST:PORT", description = "udp/tcp: where clients send or connect (:PORT for all addresses).")
    String listen;

    @Option(names = "--target", paramLabel = "HOST:PORT", description = "udp/tcp: where traffic is relayed to.")
    String target;

    @Option(names = "--side-a", paramLabel = "GROUP:PORT@IF", description = "mcast: side A, e.g. 239.1.1.1:7001@lo (forward is A to B).")
    String sideA;

    @Option(names = "--side-b", paramLabel = "GROUP:PORT@IF", description = "mcast: side B, e.g. 239.1.1.1:7002@lo.")
    String sideB;

    @Option(names = "--seed", paramLabel = "N", description = "Seed of every random impairment (default: random, logged).")
    Long seed;

    @Option(names = "--reverse-perfect", description = "Impair the forward direction only.")
    boolean reversePerfect;

    @Option(names = "--shared-socket", description = "udp: forward every client from one socket (default: a socket per client).")
    boolean sharedSocket;

    @Option(names = "--ttl", paramLabel = "N", description = "mcast: TTL of re-emitted datagrams (default: ${DEFAULT-VALUE}).")
    int ttl = MulticastBridge.DEFAULT_TTL;

    @Option(names = "--tcp-rto", paramLabel = "DURATION",
            description = "tcp: delay that a loss draw adds to a chunk, as a retransmission would (default: 200ms).")
    String tcpRetransmitTimeout;

    @Option(names = "--status-interval", paramLabel = "DURATION", description = "Status line interval, 0 for none (default: 2s).")
    String statusInterval;

    @Option(names = "--duration", paramLabel = "DURATION", description = "Stop after this long (default: run until interrupted).")
    String duration;

    public static void main(String[] args) {
        System.exit(new CommandLine(new LinkemCommand()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        LinkEmulator.Builder<?, ?> builder = emulatorBuilder();
        builder.name(mode.toLowerCase(Locale.ROOT)).forward(forwardProfile()).reverse(reverseProfile())
                .statusInterval(statusInterval == null ? DEFAULT_STATUS_INTERVAL : duration("--status-interval", statusInterval));
        if (seed != null) {
            builder.seed(seed);
        }
        Duration runFor = duration == null ? null : duration("--duration", duration);
        LinkEmulator emulator = builder.start();
        CountDownLatch stopped = new CountDownLatch(1);
        Thread onSignal = new Thread(() -> {
            emulator.close();
            stopped.countDown();
        }, "linkem-shutdown");
        Runtime.getRuntime().addShutdownHook(onSignal);
        if (runFor == null) {
            stopped.await();
        } else if (!stopped.await(runFor.toNanos(), TimeUnit.NANOSECONDS)) {
            Runtime.getRuntime().removeShutdownHook(onSignal);
            log.info("linkem: --duration {} elapsed, stopping", Quantities.formatDuration(runFor));
            emulator.close();
        }
        return 0;
    }

    /** The forward profile the parsed options describe. */
    LinkProfile forwardProfile() {
        return ImpairmentOptions.forward(spec);
    }

    /** The reverse profile the parsed options describe. */
    LinkProfile reverseProfile() {
        return ImpairmentOptions.reverse(spec, reversePerfect);
    }

    private LinkEmulator.Builder<?, ?> emulatorBuilder() {
        switch (mode.toLowerCase(Locale.ROOT)) {
            case "udp":
                return LinkEmulator.udpRelay(address("--listen", listen), address("--target", target))
                        .socketPerClient(!sharedSocket);
            case "tcp":
                TcpRelay.Builder tcp = LinkEmulator.tcpRelay(address("--listen", listen), address("--target", target));
                if (tcpRetransmitTimeout != null) {
                    tcp.retransmitTimeout(duration("--tcp-rto", tcpRetransmitTimeout));
                }
                return tcp;
            case "mcast":
                return LinkEmulator.multicastBridge(side("--side-a", sideA), side("--side-b", sideB)).ttl(ttl);
            default:
                throw bad("--mode must be udp, mcast or tcp, not '" + mode + "'");
        }
    }

    private InetSocketAddress address(String option, String value) {
        if (value == null) {
            throw bad("--mode " + mode + " needs " + option + " HOST:PORT");
        }
        try {
            return Endpoints.parse(value);
        } catch (IllegalArgumentException e) {
            throw bad(option + ": " + e.getMessage());
        }
    }

    private MulticastSide side(String option, String value) {
        if (value == null) {
            throw bad("--mode mcast needs " + option + " GROUP:PORT@INTERFACE");
        }
        int at = value.lastIndexOf('@');
        if (at < 0) {
            throw bad(option + ": '" + value + "' names no interface: write GROUP:PORT@INTERFACE, e.g. 239.1.1.1:7001@lo");
        }
        try {
            return MulticastSide.of(value.substring(0, at), value.substring(at + 1));
        } catch (IllegalArgumentException e) {
            throw bad(option + ": " + e.getMessage());
        }
    }

    private Duration duration(String option, String value) {
        try {
            return Quantities.duration("duration", value);
        } catch (IllegalArgumentException e) {
            throw bad(option + ": " + e.getMessage());
        }
    }

    private CommandLine.ParameterException bad(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
