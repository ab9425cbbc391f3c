package org.fjm2.jms.transport.inmem;

import org.fjm2.jms.transport.ParameterValues;
import org.fjm2.jms.transport.TransportParameter;
import org.fjm2.util.Quantities;

import java.util.List;
import java.util.Map;

/** The parsed URL parameters of an {@code inmem://} transport; each has a documented default. */
record InMemorySettings(int maxObjectSize, int transmitQueueObjects, long transmitQueueBytes,
                        int receiveQueueObjects, double lossRate, long seed) {

    /** Largest object, bytes. */
    static final String MAX_OBJECT_SIZE = "maxObjectSize";
    static final int MAX_OBJECT_SIZE_DEFAULT = 4 * 1024 * 1024;
    /** Objects queued at the sender before send() blocks. */
    static final String TRANSMIT_QUEUE_OBJECTS = "transmitQueueObjects";
    static final int TRANSMIT_QUEUE_OBJECTS_DEFAULT = 64;
    /** Bytes queued at the sender before send() blocks. */
    static final String TRANSMIT_QUEUE_BYTES = "transmitQueueBytes";
    static final long TRANSMIT_QUEUE_BYTES_DEFAULT = 16L * 1024 * 1024;
    /** Objects queued for each receiver's delivery thread before the sender waits for it. */
    static final String RECEIVE_QUEUE_OBJECTS = "receiveQueueObjects";
    static final int RECEIVE_QUEUE_OBJECTS_DEFAULT = 256;
    /** Probability that one receiver loses one object for good. */
    static final String LOSS_RATE = "lossRate";
    static final double LOSS_RATE_DEFAULT = 0.0;
    /** Seed of the loss injection. */
    static final String SEED = "seed";
    static final long SEED_DEFAULT = 1L;

    static final List<TransportParameter> PARAMETERS = List.of(
            new TransportParameter(MAX_OBJECT_SIZE, String.valueOf(MAX_OBJECT_SIZE_DEFAULT),
                    "largest object (batch or single message) in bytes"),
            new TransportParameter(TRANSMIT_QUEUE_OBJECTS, String.valueOf(TRANSMIT_QUEUE_OBJECTS_DEFAULT),
                    "objects waiting at the sender before send() blocks (back-pressure)"),
            new TransportParameter(TRANSMIT_QUEUE_BYTES, String.valueOf(TRANSMIT_QUEUE_BYTES_DEFAULT),
                    "bytes waiting at the sender before send() blocks (back-pressure)"),
            new TransportParameter(RECEIVE_QUEUE_OBJECTS, String.valueOf(RECEIVE_QUEUE_OBJECTS_DEFAULT),
                    "objects waiting for each receiver's delivery thread before the sender waits"),
            new TransportParameter(LOSS_RATE, String.valueOf(LOSS_RATE_DEFAULT),
                    "test only: probability 0..1 that a receiver loses an object for good (reported as lost)"),
            new TransportParameter(SEED, String.valueOf(SEED_DEFAULT),
                    "test only: seed of the loss injection"));

    static InMemorySettings parse(Map<String, String> p) {
        int maxObjectSize = (int) ParameterValues.bytesValue(p, MAX_OBJECT_SIZE, MAX_OBJECT_SIZE_DEFAULT, 1024,
                Integer.MAX_VALUE - 64);
        int txObjects = ParameterValues.intValue(p, TRANSMIT_QUEUE_OBJECTS, TRANSMIT_QUEUE_OBJECTS_DEFAULT, 1, 1 << 20);
        long txBytes = ParameterValues.bytesValue(p, TRANSMIT_QUEUE_BYTES, TRANSMIT_QUEUE_BYTES_DEFAULT, 1,
                Long.MAX_VALUE);
        int rxObjects = ParameterValues.intValue(p, RECEIVE_QUEUE_OBJECTS, RECEIVE_QUEUE_OBJECTS_DEFAULT, 1, 1 << 20);
        double lossRate = p.containsKey(LOSS_RATE) ? Quantities.loss(LOSS_RATE, p.get(LOSS_RATE).trim())
                : LOSS_RATE_DEFAULT;
        long seed = ParameterValues.longValue(p, SEED, SEED_DEFAULT, Long.MIN_VALUE, Long.MAX_VALUE);
        return new InMemorySettings(maxObjectSize, txObjects, txBytes, rxObjects, lossRate, seed);
    }

}
