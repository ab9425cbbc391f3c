package org.fjm2.jms;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The sessions of a connection and whether the connection delivers (started) or not. start() and stop() resume or
 * pause every session's consumers and listener thread; a consumer created meanwhile starts in the state that holds
 * when it is listed, as both happen under one lock. stop() returns only once no MessageListener of the connection
 * runs.
 */
final class ConnectionSessions {

    private final List<Fjm2Session> sessions = new CopyOnWriteArrayList<>();
    private final Object lock = new Object();
    private volatile boolean started;

    boolean isStarted() {
        return started;
    }

    void add(Fjm2Session session) {
        synchronized (lock) {
            sessions.add(session);
        }
    }

    void remove(Fjm2Session session) {
        sessions.remove(session);
    }

    /** Creates a consumer of the session, paused unless the connection is started, and lists its subscription. */
    /** @param durableName the durable subscription's name, or null */
    Fjm2MessageConsumer addConsumer(Fjm2Session session, Fjm2Topic topic, SelectorFilter selector, boolean noLocal,
                                    String durableName, SharedGroup shared, SubscriptionTable subscriptions) {
        synchronized (lock) {
            Fjm2MessageConsumer consumer = session.newConsumer(topic, selector, noLocal, durableName, shared,
                    !started);
            subscriptions.add(consumer);
            return consumer;
        }
    }

    void start() {
        synchronized (lock) {
            if (started) {
                return;
            }
            started = true;
            for (Fjm2Session s : sessions) {
                s.deliveryPaused(false);
            }
        }
    }

    /** Pauses delivery; returns once no listener runs (never call it from a listener of this connection). */
    void stop() {
        synchronized (lock) {
            if (!started) {
                return;
            }
            started = false;
            for (Fjm2Session s : sessions) {
                s.deliveryPaused(true);
            }
        }
        try {
            for (Fjm2Session s : sessions) {
                s.awaitListenerIdle();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The connection closes: no more deliveries are started, and every session closes. */
    void closeAll() throws jakarta.jms.JMSException {
        synchronized (lock) {
            started = false;
        }
        for (Fjm2Session s : sessions) {
            s.close();
        }
    }

    /** Whether the calling thread runs a MessageListener or CompletionListener of this connection. */
    boolean isCallbackThread() {
        for (Fjm2Session s : sessions) {
            if (s.isListenerThread() || s.isCompletionThread()) {
                return true;
            }
        }
        return false;
    }
}
