package org.fjm2.jms.message;

import jakarta.jms.JMSException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.StreamMessage;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * StreamMessage.readBytes as its javadoc specifies (and ActiveMQ and Artemis behave): a byte[] field is read by
 * calls that fill the buffer until one returns less; the call after the field's last bytes returns -1, whatever
 * the next field is, so the usual {@code while ((n = m.readBytes(buf)) != -1)} loop ends at the field's end.
 */
class StreamMessageReadBytesTest {

    @Test
    void theCopyLoopEndsAtTheFieldsEndAndTheNextFieldReadsNormally() throws Exception {
        StreamMessage m = message(new byte[] {1, 2, 3, 4, 5}, 42);
        assertThat(readField(m, new byte[2])).containsExactly(1, 2, 3, 4, 5);
        assertThat(m.readInt()).isEqualTo(42);
    }

    @Test
    void aFieldOfExactlyTheBuffersLengthEndsWithMinusOne() throws Exception {
        StreamMessage m = message(new byte[] {1, 2, 3, 4}, "next");
        byte[] buffer = new byte[4];
        assertThat(m.readBytes(buffer)).isEqualTo(4);
        assertThat(m.readBytes(buffer)).isEqualTo(-1);
        assertThat(m.readString()).isEqualTo("next");
    }

    @Test
    void aShortReadIsFollowedByMinusOneEvenWhenAnotherByteArrayFollows() throws Exception {
        StreamMessage m = message(new byte[] {1, 2, 3}, new byte[] {4, 5});
        assertThat(readField(m, new byte[8])).containsExactly(1, 2, 3);
        assertThat(readField(m, new byte[8])).containsExactly(4, 5);
        assertThatThrownBy(() -> m.readBytes(new byte[8])).isInstanceOf(jakarta.jms.MessageEOFException.class);
    }

    @Test
    void anEmptyFieldReadsAsZeroThenMinusOne() throws Exception {
        StreamMessage m = message(new byte[0], true);
        byte[] buffer = new byte[4];
        assertThat(m.readBytes(buffer)).isZero();
        assertThat(m.readBytes(buffer)).isEqualTo(-1);
        assertThat(m.readBoolean()).isTrue();
    }

    @Test
    void aNullFieldReadsAsMinusOneAtOnce() throws Exception {
        StreamMessage m = message(null, 7L);
        assertThat(m.readBytes(new byte[4])).isEqualTo(-1);
        assertThat(m.readLong()).isEqualTo(7L);
    }

    @Test
    void oncePartlyReadTheFieldMustBeFinishedFirst() throws Exception {
        StreamMessage m = message(new byte[] {1, 2, 3, 4, 5}, 42);
        assertThat(m.readBytes(new byte[2])).isEqualTo(2);
        assertThatThrownBy(m::readInt).isInstanceOf(MessageFormatException.class);
        assertThat(m.readBytes(new byte[8])).isEqualTo(3);
        // The whole value has been read: the next field may be read without the closing -1.
        assertThat(m.readInt()).isEqualTo(42);
    }

    @Test
    void anEmptyBufferReadsNothingAndSkipsNothing() throws Exception {
        StreamMessage m = message(new byte[] {1, 2}, 42);
        assertThat(m.readBytes(new byte[0])).isZero();
        assertThat(readField(m, new byte[1])).containsExactly(1, 2);
        assertThat(m.readInt()).isEqualTo(42);
    }

    @Test
    void resetStartsTheFieldAgain() throws Exception {
        StreamMessage m = message(new byte[] {1, 2, 3}, 42);
        assertThat(m.readBytes(new byte[8])).isEqualTo(3);
        m.reset();
        assertThat(readField(m, new byte[8])).containsExactly(1, 2, 3);
        assertThat(m.readInt()).isEqualTo(42);
    }

    /** The loop every JMS tutorial shows. */
    private static byte[] readField(StreamMessage m, byte[] buffer) throws JMSException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int n;
        while ((n = m.readBytes(buffer)) != -1) {
            out.write(buffer, 0, n);
        }
        return out.toByteArray();
    }

    private static StreamMessage message(Object... fields) throws JMSException {
        Fjm2StreamMessage m = new Fjm2StreamMessage();
        for (Object field : fields) {
            m.writeObject(field);
        }
        m.reset();
        return m;
    }
}
