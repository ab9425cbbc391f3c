package org.fjm2.jms;

import java.nio.charset.StandardCharsets;

import org.fjm2.norm.fuzz.FuzzInputWriter;

/**
 * Writes seed inputs for {@link InboundFuzzTest}'s structured target, field for field in the order
 * {@link JmsBatchSynth} reads them (corpus generator only).
 */
final class JmsSeedWriter {

    private final FuzzInputWriter out = new FuzzInputWriter();

    /** An object event from sender index {@code sender} (0..3): a batch of the given records. */
    JmsSeedWriter batch(int sender, int epochSelector, Record... records) {
        out.u8(sender << 2).u8(epochSelector).u8(records.length);
        for (Record r : records) {
            out.bytes(r.out.toByteArray());
        }
        out.u8(0);
        return this;
    }

    /** A batch with one byte replaced after encoding. */
    JmsSeedWriter corruptedBatch(int sender, int position, int value, Record... records) {
        out.u8(sender << 2).u8(0).u8(records.length);
        for (Record r : records) {
            out.bytes(r.out.toByteArray());
        }
        out.u8(1).u16(position).u8(value);
        return this;
    }

    JmsSeedWriter lost(int sender, int objects) {
        out.u8(2 | sender << 2).u8(objects);
        return this;
    }

    JmsSeedWriter gone(int sender) {
        out.u8(3 | sender << 2);
        return this;
    }

    byte[] toByteArray() {
        return out.toByteArray();
    }

    static void string(FuzzInputWriter w, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        w.u8(b.length).bytes(b);
    }

    /** One record; call the methods in field order: header, options, properties, body. */
    static final class Record {
        final FuzzInputWriter out = new FuzzInputWriter();

        /** kind 0..5, topic selector 0..2 (fuzz.a, fuzz.b, unsubscribed), expiration 0 never, 1 past, 2 future. */
        Record(int kind, int priority, int producer, int sequence, int topicSelector, int expiration) {
            out.u8(kind).u8(priority).u8(1).u8(producer).u16(sequence).u32(1_700_000_000L).u8(expiration).u8(0)
                    .u8(topicSelector);
        }

        /** No correlation id, type, reply-to or explicit id. */
        Record plain() {
            out.u8(0);
            return this;
        }

        /** Every option: correlation id string and bytes, type, temporary reply-to, explicit message id. */
        Record allOptions(String type) {
            out.u8(0x01 | 0x02 | 0x04 | 0x10 | 0x20);
            string(out, "corr-1");
            out.u8(3).bytes(new byte[] {1, 2, 3});
            string(out, type);
            string(out, "reply");
            string(out, "42");
            return this;
        }

        /** color = red, weight = 20 (int): matches the fixture's selector. */
        Record redAndHeavy() {
            out.u8(2).u8(0).u8(7).u8(0).u8(1).u8(3).u32(20);
            return this;
        }

        Record noProperties() {
            out.u8(0);
            return this;
        }

        /** Every typed value once, as properties (name index 3: a generated name). */
        Record everyPropertyType() {
            out.u8(7);
            out.u8(3).u8(1).u8(0xA1).u8(0).u8(1);
            out.u8(3).u8(1).u8(0xA2).u8(1).u8(0x7F);
            out.u8(3).u8(1).u8(0xA3).u8(2).u16(0x1234);
            out.u8(3).u8(1).u8(0xA4).u8(4).u32(1).u32(2);
            out.u8(3).u8(1).u8(0xA5).u8(5).u32(0x3F800000L);
            out.u8(3).u8(1).u8(0xA6).u8(6).u32(0x40090000L).u32(0);
            out.u8(2).u8(8);
            string(out, "seven");
            return this;
        }

        Record emptyBody() {
            return this;
        }

        Record text(String text) {
            out.u8(0);
            string(out, text);
            return this;
        }

        Record bytes(byte[] body) {
            out.u16(body.length).bytes(body);
            return this;
        }

        /** Map or stream body with one value of each type. */
        Record everyValueType(boolean map) {
            out.u8(7);
            for (int tag : new int[] {0, 2, 3, 4, 7, 8, 9}) {
                if (map) {
                    string(out, "e" + tag);
                }
                out.u8(tag);
                switch (tag) {
                    case 0, 7 -> out.u8(1);
                    case 2 -> out.u16(77);
                    case 3 -> out.u32(5);
                    case 4 -> out.u32(1).u32(2);
                    case 8 -> string(out, "str");
                    default -> out.u8(2).u8(9).u8(8);
                }
            }
            return this;
        }

        /** ObjectMessage body: a list of strings. */
        Record objectList() {
            out.u8(3).u8(2);
            string(out, "x");
            string(out, "y");
            return this;
        }
    }
}
