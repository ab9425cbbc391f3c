package org.fjm2.jms;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;

import java.util.concurrent.atomic.AtomicInteger;

/** Test helpers: a fresh in-memory group per test, so that tests never hear each other. */
final class InMem {

    private static final AtomicInteger GROUPS = new AtomicInteger();

    private InMem() {
    }

    /** {@code inmem://test-N} plus the given query (without '?'), a new group each call. */
    static String newUrl(String query) {
        String group = "test-" + GROUPS.incrementAndGet();
        return "inmem://" + group + (query == null || query.isEmpty() ? "" : "?" + query);
    }

    static String newUrl() {
        return newUrl(null);
    }

    static Connection connect(String url) throws JMSException {
        Connection c = new Fjm2ConnectionFactory(url).createConnection();
        c.start();
        return c;
    }
}
