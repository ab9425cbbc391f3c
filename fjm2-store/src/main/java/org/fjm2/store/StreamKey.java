package org.fjm2.store;

/**
 * One producer stream of the group: messages numbered 1, 2, 3... by a producer of a connection (node id and epoch)
 * at one priority (docs/wire-format.md of fjm2-core).
 */
record StreamKey(int node, long epoch, int producer, int priority) {
}
