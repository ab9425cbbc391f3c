package org.fjm2.jms.jndi;

import org.fjm2.jms.Fjm2ConnectionFactory;
import org.fjm2.jms.Fjm2Topic;

import javax.naming.Context;
import javax.naming.Name;
import javax.naming.Reference;
import javax.naming.RefAddr;
import javax.naming.spi.ObjectFactory;
import java.util.Hashtable;

/** Rebuilds FJM2 connection factories and topics from the JNDI References they bind as. */
public final class Fjm2ObjectFactory implements ObjectFactory {

    @Override
    public Object getObjectInstance(Object obj, Name name, Context nameCtx, Hashtable<?, ?> environment)
            throws Exception {
        if (!(obj instanceof Reference ref)) {
            return null;
        }
        if (Fjm2ConnectionFactory.class.getName().equals(ref.getClassName())) {
            RefAddr url = ref.get(Fjm2ConnectionFactory.REF_URL);
            return url == null ? new Fjm2ConnectionFactory() : new Fjm2ConnectionFactory((String) url.getContent());
        }
        if (Fjm2Topic.class.getName().equals(ref.getClassName())) {
            return new Fjm2Topic((String) ref.get("name").getContent());
        }
        return null;
    }
}
