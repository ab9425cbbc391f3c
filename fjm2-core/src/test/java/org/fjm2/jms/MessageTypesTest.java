package org.fjm2.jms;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotReadableException;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.MessageProducer;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Session;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import org.fjm2.jms.message.Fjm2BytesMessage;
import org.fjm2.jms.message.Fjm2MapMessage;
import org.fjm2.jms.message.Fjm2Message;
import org.fjm2.jms.message.Fjm2ObjectMessage;
import org.fjm2.jms.message.Fjm2StreamMessage;
import org.fjm2.jms.message.Fjm2TextMessage;
import org.junit.jupiter.api.Test;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The five message types, their states, conversion tables and bodies, and their trip over the wire. */
class MessageTypesTest {

    // ------------------------------------------------------------------ property conversion table (3.5.4)

    /** Column order: boolean, byte, short, int, long, float, double, String. 'Y' = readable as that type. */
    private static final Object[][] PROPERTY_TABLE = {
            {true, "Y------Y"},
            {(byte) 1, "-YYYY--Y"},
            {(short) 1, "--YYY--Y"},
            {1, "---YY--Y"},
            {1L, "----Y--Y"},
            {1.5f, "-----YYY"},
            {1.5d, "------YY"},
    };

    @Test
    void propertyConversionTableIsTheSpecifications() throws Exception {
        for (Object[] row : PROPERTY_TABLE) {
            Fjm2Message m = new Fjm2Message();
            m.setObjectProperty("p", row[0]);
            String allowed = (String) row[1];
            for (int column = 0; column < 8; column++) {
                int c = column;
                if (allowed.charAt(column) == 'Y') {
                    assertThat(readProperty(m, c)).as("%s as column %d", row[0].getClass(), c).isNotNull();
                } else {
                    assertThatThrownBy(() -> readProperty(m, c)).as("%s as column %d", row[0].getClass(), c)
                            .isInstanceOf(MessageFormatException.class);
                }
            }
        }
    }

    private static Object readProperty(Message m, int column) throws JMSException {
        return switch (column) {
            case 0 -> m.getBooleanProperty("p");
            case 1 -> m.getByteProperty("p");
            case 2 -> m.getShortProperty("p");
            case 3 -> m.getIntProperty("p");
            case 4 -> m.getLongProperty("p");
            case 5 -> m.getFloatProperty("p");
            case 6 -> m.getDoubleProperty("p");
            default -> m.getStringProperty("p");
        };
    }

    @Test
    void stringPropertiesParseAndNullsBehaveLikeValueOf() throws Exception {
        Fjm2Message m = new Fjm2Message();
        m.setStringProperty("n", "42");
        m.setStringProperty("b", "true");
        m.setStringProperty("x", "not a number");
        assertThat(m.getIntProperty("n")).isEqualTo(42);
        assertThat(m.getLongProperty("n")).isEqualTo(42L);
        assertThat(m.getDoubleProperty("n")).isEqualTo(42.0);
        assertThat(m.getBooleanProperty("b")).isTrue();
        assertThatThrownBy(() -> m.getIntProperty("x")).isInstanceOf(NumberFormatException.class);
        assertThat(m.getBooleanProperty("missing")).isFalse();
        assertThat(m.getStringProperty("missing")).isNull();
        assertThat(m.getObjectProperty("missing")).isNull();
        assertThatThrownBy(() -> m.getIntProperty("missing")).isInstanceOf(NumberFormatException.class);
        assertThatThrownBy(() -> m.getFloatProperty("missing")).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> m.setObjectProperty("o", new ArrayList<>()))
                .isInstanceOf(MessageFormatException.class);
        assertThat(Collections.list(m.getPropertyNames())).containsExactly("n", "b", "x");
    }

    @Test
    void propertyNamesFollowTheIdentifierRules() {
        Fjm2Message m = new Fjm2Message();
        for (String bad : new String[] {"", "1abc", "a-b", "NULL", "and", "JMSPriority", "JMSXDeliveryCount"}) {
            assertThatThrownBy(() -> m.setIntProperty(bad, 1)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> m.setIntProperty(null, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    // ------------------------------------------------------------------ stream and map conversions

    @Test
    void streamMessageConvertsAndKeepsPositionOnFailure() throws Exception {
        Fjm2StreamMessage m = new Fjm2StreamMessage();
        m.writeString("12");
        m.writeChar('c');
        m.writeBytes(new byte[] {1, 2, 3, 4, 5});
        m.writeInt(7);
        assertThatThrownBy(m::readInt).isInstanceOf(MessageNotReadableException.class);
        m.reset();
        assertThatThrownBy(m::readChar).as("String is not a char").isInstanceOf(MessageFormatException.class);
        assertThat(m.readLong()).isEqualTo(12L); // the failed read did not move the position
        assertThatThrownBy(m::readInt).as("char is not an int").isInstanceOf(MessageFormatException.class);
        assertThat(m.readString()).as("char reads as String").isEqualTo("c");
        Fjm2StreamMessage bad = new Fjm2StreamMessage();
        bad.writeString("abc");
        bad.reset();
        assertThatThrownBy(bad::readInt).isInstanceOf(NumberFormatException.class);
        assertThat(bad.readString()).as("position kept after NumberFormatException").isEqualTo("abc");
    }

    @Test
    void streamMessageReadsCharAndBytesAsTheTableSays() throws Exception {
        Fjm2StreamMessage m = new Fjm2StreamMessage();
        m.writeChar('c');
        m.writeBytes(new byte[] {1, 2, 3, 4, 5});
        m.writeInt(7);
        m.writeObject(null);
        m.reset();
        assertThatThrownBy(m::readInt).isInstanceOf(MessageFormatException.class);
        assertThat(m.readChar()).isEqualTo('c');
        byte[] chunk = new byte[2];
        assertThat(m.readBytes(chunk)).isEqualTo(2);
        assertThatThrownBy(m::readInt).as("mid byte[] field").isInstanceOf(MessageFormatException.class);
        assertThat(m.readBytes(chunk)).isEqualTo(2);
        assertThat(m.readBytes(chunk)).isEqualTo(1);
        assertThat(chunk[0]).isEqualTo((byte) 5);
        assertThat(m.readString()).isEqualTo("7");
        assertThatThrownBy(m::readChar).as("null as char").isInstanceOf(NullPointerException.class);
        assertThat(m.readObject()).isNull();
        assertThatThrownBy(m::readInt).isInstanceOf(MessageEOFException.class);
        assertThatThrownBy(() -> m.writeInt(1)).isInstanceOf(MessageNotWriteableException.class);
    }

    @Test
    void mapMessageConversionsAndNames() throws Exception {
        Fjm2MapMessage m = new Fjm2MapMessage();
        m.setShort("s", (short) 3);
        m.setChar("c", 'z');
        m.setBytes("b", new byte[] {9});
        m.setString("d", "2.5");
        assertThat(m.getInt("s")).isEqualTo(3);
        assertThat(m.getString("c")).isEqualTo("z");
        assertThatThrownBy(() -> m.getInt("c")).isInstanceOf(MessageFormatException.class);
        assertThatThrownBy(() -> m.getString("b")).isInstanceOf(MessageFormatException.class);
        assertThat(m.getDouble("d")).isEqualTo(2.5);
        assertThatThrownBy(() -> m.getByte("s")).isInstanceOf(MessageFormatException.class);
        assertThat(m.getBytes("b")).containsExactly(9);
        assertThat(m.itemExists("s")).isTrue();
        assertThat(Collections.list(m.getMapNames())).containsExactly("s", "c", "b", "d");
        assertThatThrownBy(() -> m.setInt("", 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> m.setObject("o", new Object())).isInstanceOf(MessageFormatException.class);
    }

    @Test
    void bytesMessageIsWriteOnlyThenReadOnly() throws Exception {
        Fjm2BytesMessage m = new Fjm2BytesMessage();
        m.writeInt(5);
        m.writeUTF("héllo");
        m.writeObject(2.5d);
        assertThatThrownBy(m::readInt).isInstanceOf(MessageNotReadableException.class);
        assertThatThrownBy(m::getBodyLength).isInstanceOf(MessageNotReadableException.class);
        m.reset();
        assertThat(m.getBodyLength()).isEqualTo(4 + 2 + 6 + 8);
        assertThat(m.readInt()).isEqualTo(5);
        assertThat(m.readUTF()).isEqualTo("héllo");
        assertThat(m.readDouble()).isEqualTo(2.5);
        assertThatThrownBy(m::readByte).isInstanceOf(MessageEOFException.class);
        assertThat(m.readBytes(new byte[4])).isEqualTo(-1);
        assertThatThrownBy(() -> m.writeInt(1)).isInstanceOf(MessageNotWriteableException.class);
        m.clearBody();
        m.writeByte((byte) 1);
        m.reset();
        assertThat(m.getBodyLength()).isEqualTo(1);
        assertThatThrownBy(() -> m.writeObject(new Object())).isInstanceOf(MessageNotWriteableException.class);
    }

    // ------------------------------------------------------------------ getBody / isBodyAssignableTo

    @Test
    void getBodyReturnsTheBodyAsTheSpecificationSays() throws Exception {
        assertThat(new Fjm2TextMessage("t").getBody(String.class)).isEqualTo("t");
        assertThatThrownBy(() -> new Fjm2TextMessage("t").getBody(Integer.class))
                .isInstanceOf(MessageFormatException.class);
        assertThat(new Fjm2TextMessage().getBody(Integer.class)).as("no body: any type, null").isNull();
        Fjm2BytesMessage bytes = new Fjm2BytesMessage();
        bytes.writeBytes(new byte[] {1, 2});
        assertThat(bytes.getBody(byte[].class)).containsExactly(1, 2);
        assertThat(bytes.isBodyAssignableTo(String.class)).isFalse();
        Fjm2MapMessage map = new Fjm2MapMessage();
        map.setInt("a", 1);
        assertThat(map.getBody(Map.class)).containsEntry("a", 1);
        Fjm2StreamMessage stream = new Fjm2StreamMessage();
        stream.writeInt(1);
        assertThat(stream.isBodyAssignableTo(Object.class)).isFalse();
        assertThatThrownBy(() -> stream.getBody(Object.class)).isInstanceOf(MessageFormatException.class);
        Fjm2ObjectMessage object = new Fjm2ObjectMessage();
        object.setObject(new ArrayList<>(List.of("x")));
        assertThat(object.getBody(List.class)).containsExactly("x");
        assertThat(object.isBodyAssignableTo(String.class)).isFalse();
        assertThat(new Fjm2Message().getBody(String.class)).isNull();
        assertThat(new Fjm2Message().isBodyAssignableTo(Long.class)).isTrue();
    }

    // ------------------------------------------------------------------ over the wire

    @Test
    void everyTypeAndHeaderFieldSurvivesTheWireAndArrivesReadOnly() throws Exception {
        String url = InMem.newUrl();
        try (Connection pub = InMem.connect(url); Connection sub = InMem.connect(url)) {
            Session ps = pub.createSession();
            Topic topic = ps.createTopic("types");
            Topic reply = ps.createTopic("replies");
            MessageConsumer consumer = sub.createSession().createConsumer(topic);
            MessageProducer producer = ps.createProducer(topic);

            TextMessage text = ps.createTextMessage("héllo wörld");
            text.setJMSCorrelationID("corr-1");
            text.setJMSType("greeting");
            text.setJMSReplyTo(reply);
            text.setBooleanProperty("bool", true);
            text.setByteProperty("byte", (byte) -3);
            text.setShortProperty("short", (short) 300);
            text.setIntProperty("int", 70000);
            text.setLongProperty("long", 1L << 40);
            text.setFloatProperty("float", 1.25f);
            text.setDoubleProperty("double", -2.5);
            text.setStringProperty("string", "s");
            text.setStringProperty("JMSXGroupID", "g1");
            producer.send(text, DeliveryMode.NON_PERSISTENT, 7, 60_000);
            long sentExpiration = text.getJMSExpiration();

            BytesMessage bytes = ps.createBytesMessage();
            bytes.writeBytes(new byte[] {1, 2, 3});
            bytes.setJMSCorrelationIDAsBytes(new byte[] {(byte) 0xCA, (byte) 0xFE});
            producer.send(bytes);

            MapMessage map = ps.createMapMessage();
            map.setInt("i", 1);
            map.setChar("c", 'x');
            map.setBytes("b", new byte[] {4});
            map.setObject("n", null);
            producer.send(map);

            StreamMessage stream = ps.createStreamMessage();
            stream.writeString("a");
            stream.writeDouble(1.5);
            stream.writeBytes(new byte[] {8, 9});
            producer.send(stream);

            ObjectMessage object = ps.createObjectMessage(new ArrayList<>(List.of(1, "two")));
            producer.send(object);
            producer.send(ps.createMessage());
            producer.send(ps.createTextMessage(null));

            TextMessage rt = (TextMessage) consumer.receive(5000);
            assertThat(rt.getText()).isEqualTo("héllo wörld");
            assertThat(rt.getJMSCorrelationID()).isEqualTo("corr-1");
            assertThat(rt.getJMSType()).isEqualTo("greeting");
            assertThat(rt.getJMSReplyTo()).isEqualTo(reply);
            assertThat(rt.getJMSPriority()).isEqualTo(7);
            assertThat(rt.getJMSDeliveryMode()).isEqualTo(DeliveryMode.NON_PERSISTENT);
            assertThat(rt.getJMSExpiration()).isEqualTo(sentExpiration).isPositive();
            assertThat(rt.getJMSMessageID()).isEqualTo(text.getJMSMessageID());
            assertThat(rt.getJMSTimestamp()).isEqualTo(text.getJMSTimestamp());
            assertThat(rt.getBooleanProperty("bool")).isTrue();
            assertThat(rt.getByteProperty("byte")).isEqualTo((byte) -3);
            assertThat(rt.getShortProperty("short")).isEqualTo((short) 300);
            assertThat(rt.getIntProperty("int")).isEqualTo(70000);
            assertThat(rt.getLongProperty("long")).isEqualTo(1L << 40);
            assertThat(rt.getFloatProperty("float")).isEqualTo(1.25f);
            assertThat(rt.getDoubleProperty("double")).isEqualTo(-2.5);
            assertThat(rt.getStringProperty("string")).isEqualTo("s");
            assertThat(rt.getStringProperty("JMSXGroupID")).isEqualTo("g1");
            assertThatThrownBy(() -> rt.setText("x")).isInstanceOf(MessageNotWriteableException.class);
            assertThatThrownBy(() -> rt.setIntProperty("x", 1)).isInstanceOf(MessageNotWriteableException.class);
            rt.clearProperties();
            rt.setIntProperty("x", 1);
            rt.clearBody();
            rt.setText("now writable");

            BytesMessage rb = (BytesMessage) consumer.receive(5000);
            assertThat(rb.getBodyLength()).isEqualTo(3);
            assertThat(rb.getJMSCorrelationIDAsBytes()).containsExactly((byte) 0xCA, (byte) 0xFE);
            assertThatThrownBy(() -> rb.writeInt(1)).isInstanceOf(MessageNotWriteableException.class);

            MapMessage rm = (MapMessage) consumer.receive(5000);
            assertThat(rm.getInt("i")).isEqualTo(1);
            assertThat(rm.getChar("c")).isEqualTo('x');
            assertThat(rm.getBytes("b")).containsExactly(4);
            assertThat(rm.itemExists("n")).isTrue();
            assertThat(rm.getObject("n")).isNull();

            StreamMessage rs = (StreamMessage) consumer.receive(5000);
            assertThat(rs.readString()).isEqualTo("a");
            assertThat(rs.readDouble()).isEqualTo(1.5);
            assertThat((byte[]) rs.readObject()).containsExactly(8, 9);

            ObjectMessage ro = (ObjectMessage) consumer.receive(5000);
            assertThat(ro.getObject()).isEqualTo(List.of(1, "two"));

            Message plain = consumer.receive(5000);
            assertThat(plain).isNotInstanceOfAny(TextMessage.class, BytesMessage.class);
            assertThat(((TextMessage) consumer.receive(5000)).getText()).isNull();
        }
    }

    /** Not on the default allow-list. */
    record Payload(String value) implements Serializable {
    }

    @Test
    void objectMessageRefusesClassesOutsideTheAllowList() throws Exception {
        String url = InMem.newUrl();
        try (Connection pub = InMem.connect(url); Connection sub = InMem.connect(url);
             Connection trusting = InMem.connect(url + "?objectMessageAllowList=java.lang.*,org.fjm2.jms.**")) {
            Session ps = pub.createSession();
            Topic topic = ps.createTopic("objects");
            MessageConsumer strict = sub.createSession().createConsumer(topic);
            MessageConsumer lenient = trusting.createSession().createConsumer(topic);
            ps.createProducer(topic).send(ps.createObjectMessage(new Payload("p")));
            ObjectMessage refused = (ObjectMessage) strict.receive(5000);
            assertThatThrownBy(refused::getObject).isInstanceOf(MessageFormatException.class)
                    .hasMessageContaining(Payload.class.getName()).hasMessageContaining("objectMessageAllowList");
            ObjectMessage allowed = (ObjectMessage) lenient.receive(5000);
            assertThat(allowed.getObject()).isEqualTo(new Payload("p"));
        }
    }
}
