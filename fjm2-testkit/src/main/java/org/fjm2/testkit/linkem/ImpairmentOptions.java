package org.fjm2.testkit.linkem;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.BiConsumer;

import org.fjm2.util.Quantities;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine;

/**
 * The impairment options of {@code linkem}, declared once and added to the command twice: {@code --NAME} for the
 * forward direction (and, by default, the reverse one too) and {@code --reverse-NAME} to set the reverse
 * direction apart. Installed as the command's picocli model transformer.
 */
public final class ImpairmentOptions implements CommandLine.IModelTransformer {

    /** Prefix of the options that override one impairment for the reverse direction. */
    static final String REVERSE_PREFIX = "--reverse-";

    /** One impairment option: its name, value label, help text, and how its value sets a profile builder. */
    record Impairment(String name, String label, String description, BiConsumer<LinkProfile.Builder, String> apply) {
        boolean isFlag() {
            return label.isEmpty();
        }
    }

    static final List<Impairment> IMPAIRMENTS = List.of(
            new Impairment("rate", "RATE", "Bottleneck rate in bits/s, e.g. 100mbit, 512kbit (default: unlimited).",
                    (b, v) -> b.rate(Quantities.rate("rate", v))),
            new Impairment("queue", "SIZE", "Bytes that may wait for the rate limiter before drops, e.g. 64k (default: "
                    + Quantities.formatBytes(LinkProfile.DEFAULT_QUEUE_BYTES) + ").",
                    (b, v) -> b.queueLimit(intBytes(v))),
            new Impairment("burst", "SIZE", "Bytes allowed back to back above the rate (default: 0, strict pacing).",
                    (b, v) -> b.burst(intBytes(v))),
            new Impairment("delay", "DURATION", "Fixed one-way delay, e.g. 50ms.",
                    (b, v) -> b.delay(Quantities.duration("duration", v))),
            new Impairment("jitter", "DURATION", "Delay variation: half-width (uniform) or standard deviation (normal).",
                    (b, v) -> b.jitter(Quantities.duration("duration", v))),
            new Impairment("jitter-distribution", "uniform|normal", "How jitter is drawn (default: uniform).",
                    (b, v) -> b.jitterDistribution(distribution(v))),
            new Impairment("jitter-reorders", "", "Let jitter reorder packets (default: departures stay in order).",
                    (b, v) -> b.jitterMayReorder(true)),
            new Impairment("loss", "PROB", "Random loss, e.g. 1% or 0.01.",
                    (b, v) -> b.loss(Quantities.loss("probability", v))),
            new Impairment("ge", "P,R,LOSSGOOD,LOSSBAD", "Gilbert-Elliott burst loss: p good->bad, r bad->good, loss in"
                    + " the good and the bad state, e.g. 1%,30%,0,100% (mean burst 1/r packets).",
                    (b, v) -> b.burstLoss(gilbertElliott(v))),
            new Impairment("reorder", "PROB[,DELAY]", "Hold a packet back by DELAY (default "
                    + Quantities.formatDuration(LinkProfile.DEFAULT_REORDER_DELAY) + ") so later ones overtake it, e.g. 1%,10ms.",
                    ImpairmentOptions::reorder),
            new Impairment("duplicate", "PROB", "Deliver a packet twice, e.g. 0.1%.",
                    (b, v) -> b.duplicate(Quantities.loss("probability", v))),
            new Impairment("updown", "UP/DOWN[@OFFSET]", "Link up for UP then down for DOWN, repeated, starting after"
                    + " OFFSET, e.g. 4s/2s or 4s/2s@1s. Datagrams are dropped while down, TCP bytes held.",
                    (b, v) -> b.upDown(upDown(v))));

    @Override
    public CommandSpec transform(CommandSpec spec) {
        for (Impairment i : IMPAIRMENTS) {
            spec.addOption(option("--" + i.name(), i, i.description()));
        }
        for (Impairment i : IMPAIRMENTS) {
            spec.addOption(option(REVERSE_PREFIX + i.name(), i, "Reverse direction only: " + i.name() + "."));
        }
        return spec;
    }

    private static OptionSpec option(String name, Impairment impairment, String description) {
        // picocli treats descriptions as format strings: a literal percent sign must be doubled.
        OptionSpec.Builder b = OptionSpec.builder(name).description(description.replace("%", "%%"));
        if (impairment.isFlag()) {
            return b.arity("0").type(Boolean.class).build();
        }
        return b.arity("1").type(String.class).paramLabel(impairment.label()).build();
    }

    /**
     * The forward profile: every {@code --NAME} option given.
     *
     * @throws CommandLine.ParameterException naming the option, when a value does not parse
     */
    static LinkProfile forward(CommandSpec spec) {
        LinkProfile.Builder b = LinkProfile.builder();
        apply(spec, "--", b);
        return build(spec, b, "");
    }

    /**
     * The reverse profile: the same impairments as forward unless {@code reversePerfect}, then every
     * {@code --reverse-NAME} option on top.
     */
    static LinkProfile reverse(CommandSpec spec, boolean reversePerfect) {
        LinkProfile.Builder b = LinkProfile.builder();
        if (!reversePerfect) {
            apply(spec, "--", b);
        }
        apply(spec, REVERSE_PREFIX, b);
        return build(spec, b, "reverse ");
    }

    private static void apply(CommandSpec spec, String prefix, LinkProfile.Builder b) {
        for (Impairment i : IMPAIRMENTS) {
            OptionSpec option = spec.findOption(prefix + i.name());
            Object value = option == null ? null : option.getValue();
            if (value == null || Boolean.FALSE.equals(value)) {
                continue;
            }
            try {
                i.apply().accept(b, value.toString());
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), prefix + i.name() + ": " + e.getMessage());
            }
        }
    }

    private static LinkProfile build(CommandSpec spec, LinkProfile.Builder b, String which) {
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), which + e.getMessage());
        }
    }

    private static int intBytes(String text) {
        long bytes = Quantities.bytes("size", text);
        if (bytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("size '" + text + "' is too large (at most 2g)");
        }
        return (int) bytes;
    }

    private static JitterDistribution distribution(String text) {
        try {
            return JitterDistribution.valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + text + "' is not a jitter distribution: use uniform or normal");
        }
    }

    static GilbertElliott gilbertElliott(String text) {
        String[] parts = text.split(",");
        if (parts.length != 4) {
            throw new IllegalArgumentException("'" + text + "' needs four values p,r,lossGood,lossBad, e.g. 1%,30%,0,100%");
        }
        return new GilbertElliott(Quantities.loss("probability", parts[0]), Quantities.loss("probability", parts[1]),
                Quantities.loss("probability", parts[2]), Quantities.loss("probability", parts[3]));
    }

    private static void reorder(LinkProfile.Builder b, String text) {
        String[] parts = text.split(",");
        if (parts.length > 2) {
            throw new IllegalArgumentException("'" + text + "' is not PROB[,DELAY], e.g. 1%,10ms");
        }
        Duration delay = parts.length == 2 ? Quantities.duration("duration", parts[1]) : LinkProfile.DEFAULT_REORDER_DELAY;
        b.reorder(Quantities.loss("probability", parts[0]), delay);
    }

    static UpDownSchedule upDown(String text) {
        String schedule = text;
        Duration offset = Duration.ZERO;
        int at = text.indexOf('@');
        if (at >= 0) {
            schedule = text.substring(0, at);
            offset = Quantities.duration("duration", text.substring(at + 1));
        }
        String[] parts = schedule.split("/");
        if (parts.length != 2) {
            throw new IllegalArgumentException("'" + text + "' is not UP/DOWN[@OFFSET], e.g. 4s/2s or 4s/2s@1s");
        }
        return new UpDownSchedule(Quantities.duration("duration", parts[0]), Quantities.duration("duration", parts[1]), offset);
    }
}
