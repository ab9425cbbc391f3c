package org.fjm2.jms;

import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * FJM2 authenticates groups, not users: whoever holds a group's key (URL parameters {@code security} and
 * {@code keyFile}) may publish and subscribe, so a user name and password have nothing to be checked against.
 * Applications and frameworks written for a broker pass them anyway; they are ignored, and said so once per JVM
 * (not per connection: pools and Spring's listener containers open connections all the time). The password is
 * never logged.
 */
final class IgnoredCredentials {

    private static final Logger LOG = LoggerFactory.getLogger(IgnoredCredentials.class);
    private static final AtomicBoolean REPORTED = new AtomicBoolean();

    private IgnoredCredentials() {
    }

    /** Notes credentials given to a connection or context; logs the first time any are given. */
    static void given(String userName, String password) {
        if ((userName != null || password != null) && REPORTED.compareAndSet(false, true)) {
            LOG.warn("FJM2 does not authenticate users: the user name{} and password given to createConnection/"
                    + "createContext are ignored. A group is protected by its shared key instead (URL parameters "
                    + "security=authenticate|seal and keyFile). Logged once.",
                    userName == null ? "" : " '" + userName + "'");
        }
    }

    /** Tests only: makes the next credentials log again. */
    static void resetForTests() {
        REPORTED.set(false);
    }
}
