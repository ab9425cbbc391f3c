package org.fjm2.jms;

import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidClientIDException;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A connection's client id and the specification's rules for it: set administratively (the factory's
 * {@code clientID}) or by {@code setClientID} as the very first call on the connection, at most once, and unique —
 * within this JVM, since uniqueness across the network would need a broker, which FJM2 has not.
 */
final class ClientIdentity {

    /** Client ids in use in this JVM. */
    private static final Set<String> IN_USE = ConcurrentHashMap.newKeySet();

    private volatile String id;
    private boolean administrative;
    private boolean settable = true;

    /** The factory's client id, claimed as the connection opens. */
    synchronized void claimAdministrative(String clientId) throws InvalidClientIDException {
        claim(clientId);
        administrative = true;
        settable = false;
    }

    /** {@code Connection.setClientID}. */
    synchronized void set(String clientId) throws jakarta.jms.JMSException {
        if (administrative) {
            throw new IllegalStateException("the client id was configured administratively (clientID=" + id
                    + ") and cannot be changed");
        }
        if (id != null || !settable) {
            throw new IllegalStateException("setClientID must be the first call on a connection, and only once");
        }
        if (clientId == null || clientId.isEmpty()) {
            throw new InvalidClientIDException("client id must not be null or empty");
        }
        claim(clientId);
        settable = false;
    }

    private void claim(String clientId) throws InvalidClientIDException {
        if (!IN_USE.add(clientId)) {
            throw new InvalidClientIDException("client id '" + clientId + "' is already in use by another connection");
        }
        id = clientId;
    }

    /** Another call came first: setClientID is no longer allowed. */
    synchronized void freeze() {
        settable = false;
    }

    /** The client id, or null when none was set. */
    String idOrNull() {
        return id;
    }

    /** The connection closed: its id may be used again. */
    synchronized void release() {
        if (id != null) {
            IN_USE.remove(id);
        }
    }
}
