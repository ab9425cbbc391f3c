package org.fjm2.jms.norm;

import java.util.concurrent.atomic.AtomicInteger;

/** norm:// URLs for tests: a fresh group and port each, on loopback, tuned for a LAN-sized round trip. */
final class NormUrls {

    private static final AtomicInteger NEXT = new AtomicInteger((int) (ProcessHandle.current().pid() % 200) * 40);

    private NormUrls() {
    }

    /** Base URL without query: norm://239.78.x.y:port. */
    static String fresh() {
        int n = NEXT.getAndIncrement();
        return "norm://239.78." + ((n >> 8) & 0xFF) + "." + (n & 0xFF) + ":" + (30000 + n % 20000);
    }

    /** The URL with the usual loopback test parameters and any extra ones ("a=b&c=d"). */
    static String of(String base, String extra) {
        String rate = extra.contains("rate=") ? "" : "&rate=400m";
        return base + "?interface=lo&grtt=0.002&senderTimeout=30" + rate + (extra.isEmpty() ? "" : "&" + extra);
    }
}
