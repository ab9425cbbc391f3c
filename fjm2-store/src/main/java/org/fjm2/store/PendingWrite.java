package org.fjm2.store;

/**
 * A PERSISTENT message on its way from the receive thread to the journal writer.
 *
 * @param stream        its producer stream
 * @param runStart      the first number of the hole-free run it ends ({@link StreamTracker})
 * @param sequence      its number
 * @param journalRecord the bytes to journal ({@link JournalRecordCodec})
 */
record PendingWrite(StreamKey stream, long runStart, long sequence, byte[] journalRecord) implements JournalTask {
}
