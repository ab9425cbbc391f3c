package org.fjm2.jms.message;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import jakarta.jms.JMSException;
import jakarta.jms.TextMessage;
import org.fjm2.jms.wire.MalformedWireException;
import org.fjm2.jms.wire.MessageHeaderFlyweight;
import org.fjm2.jms.wire.WireReader;

/** A message whose body is a String; on the wire a presence byte then UTF-8, written straight into the batch. */
public final class Fjm2TextMessage extends Fjm2Message implements TextMessage {

    private String text;

    public Fjm2TextMessage() {
    }

    public Fjm2TextMessage(String text) {
        this.text = text;
    }

    @Override
    public int bodyKind() {
        return MessageHeaderFlyweight.KIND_TEXT;
    }

    @Override
    public void setText(String value) throws JMSException {
        checkBodyWritable();
        text = value;
    }

    @Override
    public String getText() {
        return text;
    }

    @Override
    protected void clearBodyContent() {
        text = null;
    }

    @Override
    @SuppressWarnings("rawtypes")
    public boolean isBodyAssignableTo(Class c) {
        return text == null || c.isAssignableFrom(String.class);
    }

    @Override
    protected <T> T bodyAs(Class<T> c) {
        return c.cast(text);
    }

    @Override
    public void writeBody(ByteBuf out) {
        if (text == null) {
            out.writeByte(0);
        } else {
            out.writeByte(1);
            ByteBufUtil.writeUtf8(out, text);
        }
    }

    @Override
    public void readBody(WireReader in) throws MalformedWireException {
        text = in.readUnsignedByte() == 0 ? null : in.readRemainingUtf8();
    }

    @Override
    protected Fjm2Message newInstance() {
        return new Fjm2TextMessage();
    }

    @Override
    protected void shareBodyWith(Fjm2Message source) {
        text = ((Fjm2TextMessage) source).text;
    }
}
