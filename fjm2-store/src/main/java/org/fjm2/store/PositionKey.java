package org.fjm2.store;

/**
 * A producer stream as a subscriber names it in its positions: publisher epoch, producer, priority (messages carry
 * no node id of their publisher; the epoch, random per connection, tells connections apart).
 */
record PositionKey(long epoch, int producer, int priority) {

    static PositionKey of(StoredMessage m) {
        return new PositionKey(m.epoch(), m.producerId(), m.priority());
    }
}
