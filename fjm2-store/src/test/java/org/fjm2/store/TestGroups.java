package org.fjm2.store;

import java.util.concurrent.atomic.AtomicInteger;

/** A fresh multicast group and port per test on loopback (239.77.x.y), with a LAN-sized round trip. */
final class TestGroups {

    private static final AtomicInteger NEXT = new AtomicInteger((int) (ProcessHandle.current().pid() % 250) * 16);

    private TestGroups() {
    }

    /** A URL of a group no other test uses, with {@code extra} parameters ("a=b&c=d") appended. */
    static String url(String extra) {
        int n = NEXT.getAndIncrement();
        return "norm://239.77." + ((n >> 8) & 0xFF) + "." + (n & 0xFF) + ":" + (41000 + n % 10000)
                + "?interface=lo&grtt=0.002&rate=400m" + (extra.isEmpty() ? "" : "&" + extra);
    }

    /** The same group with other parameters (stores and publishers of one test share the group). */
    static String sameGroup(String url, String extra) {
        return url + (extra.isEmpty() ? "" : "&" + extra);
    }
}
