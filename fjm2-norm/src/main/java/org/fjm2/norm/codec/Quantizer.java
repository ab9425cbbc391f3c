package org.fjm2.norm.codec;

/**
 * The quantisations RFC 5740 uses to carry round-trip times, group sizes, rates and loss fractions in a few bits.
 * Decoding uses tables computed once, so the receive path does no floating-point transcendental math.
 */
public final class Quantizer {

    /** Smallest round-trip time the 8-bit encoding can express, in seconds. */
    public static final double RTT_MIN = 1.0e-6;
    /** Largest round-trip time the 8-bit encoding can express, in seconds. */
    public static final double RTT_MAX = 1000.0;

    private static final double[] RTT = new double[256];
    private static final double[] GROUP_SIZE = new double[16];

    static {
        for (int q = 0; q < 256; q++) {
            RTT[q] = q < 31 ? (q + 1) * RTT_MIN : RTT_MAX / Math.exp((255 - q) / 13.0);
        }
        for (int q = 0; q < 8; q++) {
            GROUP_SIZE[q] = Math.pow(10, q + 1);
            GROUP_SIZE[q + 8] = 5 * Math.pow(10, q + 1);
        }
    }

    private Quantizer() {
    }

    /** Encodes a round-trip time (seconds) into the 8-bit grtt / cc_rtt form, rounding upwards. */
    public static int quantizeRtt(double rttSeconds) {
        double rtt = rttSeconds;
        if (!(rtt >= RTT_MIN)) {        // also catches NaN
            rtt = RTT_MIN;
        } else if (rtt > RTT_MAX) {
            rtt = RTT_MAX;
        }
        if (rtt < 3.3e-5) {
            return Math.max(0, (int) (rtt / RTT_MIN) - 1);
        }
        return Math.min(255, (int) Math.ceil(255.0 - 13.0 * Math.log(RTT_MAX / rtt)));
    }

    /** Decodes an 8-bit grtt / cc_rtt value into seconds. */
    public static double unquantizeRtt(int quantized) {
        return RTT[quantized & 0xFF];
    }

    /** Encodes a group size estimate into the 4-bit gsize form, rounding upwards (conservatively). */
    public static int quantizeGroupSize(double groupSize) {
        if (!(groupSize >= 10)) {
            return 0;
        }
        int exponent = (int) Math.log10(groupSize);
        if (exponent > 8) {
            return 0x0F;
        }
        int mantissa = (int) Math.ceil(groupSize / Math.pow(10, exponent));
        if (mantissa > 5) {
            return exponent > 7 ? 0x0F : exponent;
        } else if (mantissa > 1) {
            return exponent + 0x07;
        } else {
            return exponent - 1;
        }
    }

    /** Decodes a 4-bit gsize value. */
    public static double unquantizeGroupSize(int quantized) {
        return GROUP_SIZE[quantized & 0x0F];
    }

    /** Encodes a rate in bytes per second into the 16-bit form (12-bit mantissa, 4-bit decimal exponent). */
    public static int quantizeRate(double bytesPerSecond) {
        if (!(bytesPerSecond > 0)) {
            return 0x01;
        }
        int exponent = Math.min(15, (int) Math.log10(bytesPerSecond));
        int mantissa = (int) ((4096.0 / 10.0) * (bytesPerSecond / Math.pow(10.0, exponent)) + 0.5);
        return ((mantissa & 0x0FFF) << 4) | exponent;
    }

    /** Decodes a 16-bit rate into bytes per second. */
    public static double unquantizeRate(int quantized) {
        double mantissa = ((quantized & 0xFFFF) >>> 4) * (10.0 / 4096.0);
        return mantissa * Math.pow(10.0, quantized & 0x0F);
    }

    /** Encodes a loss fraction (0..1) into 16 bits. */
    public static int quantizeLoss(double lossFraction) {
        double scaled = Math.max(lossFraction, 0.0) * 65535.0 + 0.5;
        return (int) Math.min(scaled, 65535.0);
    }

    /** Decodes a 16-bit loss fraction. */
    public static double unquantizeLoss(int quantized) {
        return (quantized & 0xFFFF) / 65535.0;
    }

    /** Encodes a loss fraction into 32 bits (the extended precision NRL NORM spreads over cc_loss and cc_reserved). */
    public static long quantizeLoss32(double lossFraction) {
        double scaled = Math.max(lossFraction, 0.0) * 4294967295.0 + 0.5;
        return (long) Math.min(scaled, 4294967295.0);
    }

    /** Decodes a 32-bit loss fraction. */
    public static double unquantizeLoss32(long quantized) {
        return (quantized & 0xFFFFFFFFL) / 4294967295.0;
    }
}
