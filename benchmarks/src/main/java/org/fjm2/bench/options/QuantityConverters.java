package org.fjm2.bench.options;

import java.time.Duration;

import org.fjm2.util.Quantities;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * picocli converters that read the benchmarks' options in the one grammar of quantities (org.fjm2.util.Quantities),
 * like every other FJM2 command: rates {@code 100m}, {@code 100mbit}; sizes {@code 64k}, {@code 1MiB}; durations
 * {@code 500ms}, {@code 10s} (a bare number is seconds); loss {@code 5%} or {@code 0.05}. Plain numbers keep their
 * old meaning (bit/s, bytes, seconds, a fraction), except that a loss is never a bare percentage any more and the
 * options that took milliseconds want the unit.
 */
public final class QuantityConverters {

    private QuantityConverters() {
    }

    /** A rate in bit/s. */
    public static final class BitRate implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return parse(() -> Quantities.rate("rate", value));
        }
    }

    /** A size in bytes that fits an int (message, datagram and object sizes). */
    public static final class Bytes implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            long bytes = parse(() -> Quantities.bytes("size", value));
            if (bytes > Integer.MAX_VALUE) {
                throw new TypeConversionException("size '" + value + "' is larger than 2 GiB");
            }
            return (int) bytes;
        }
    }

    /** A loss probability, {@code 5%} or {@code 0.05}. */
    public static final class Loss implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            return parse(() -> Quantities.loss("loss", value));
        }
    }

    /** A duration in seconds (fractions allowed). */
    public static final class Seconds implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            return parse(() -> Quantities.duration("duration", value)).toNanos() / 1e9;
        }
    }

    /** A duration in whole seconds. */
    public static final class WholeSeconds implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            Duration d = parse(() -> Quantities.duration("duration", value));
            if (d.toNanosPart() != 0 || d.getSeconds() > Integer.MAX_VALUE) {
                throw new TypeConversionException("duration '" + value + "' must be whole seconds");
            }
            return (int) d.getSeconds();
        }
    }

    /**
     * A duration in whole milliseconds, written with its unit ({@code 100ms}, {@code 0.1s}): these options used to
     * take bare milliseconds, which the common grammar reads as seconds, so a bare number is refused rather than
     * silently taken 1000 times longer.
     */
    public static final class Millis implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            if (value.strip().matches("[0-9.]+")) {
                throw new TypeConversionException("duration '" + value + "' needs a unit: " + value.strip()
                        + "ms or " + value.strip() + "s");
            }
            Duration d = parse(() -> Quantities.duration("duration", value));
            if (d.toNanos() % 1_000_000 != 0 || d.toMillis() > Integer.MAX_VALUE) {
                throw new TypeConversionException("duration '" + value + "' must be whole milliseconds");
            }
            return (int) d.toMillis();
        }
    }

    /** Quantities' IllegalArgumentException as picocli's conversion error: one line naming the option. */
    private static <T> T parse(java.util.function.Supplier<T> parser) {
        try {
            return parser.get();
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
