package org.fjm2.store;

/** A durable subscription's identity: the subscriber's client id and the subscription's name (JMS). */
record SubscriptionKey(String clientId, String name) {

    @Override
    public String toString() {
        return clientId + "/" + name;
    }
}
