package org.fjm2.jms.jndi;

import org.fjm2.jms.Fjm2Topic;

import javax.naming.Binding;
import javax.naming.CompositeName;
import javax.naming.Context;
import javax.naming.Name;
import javax.naming.NameClassPair;
import javax.naming.NameNotFoundException;
import javax.naming.NameParser;
import javax.naming.NamingEnumeration;
import javax.naming.NamingException;
import javax.naming.OperationNotSupportedException;
import java.util.Collections;
import java.util.Hashtable;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Function;

/** The flat, read-only context of {@link Fjm2InitialContextFactory}. */
final class ReadOnlyContext implements Context {

    static final String DYNAMIC_TOPICS = "dynamicTopics/";

    private final Map<String, Object> bindings;
    private final Hashtable<Object, Object> environment;

    ReadOnlyContext(Map<String, Object> bindings, Hashtable<?, ?> environment) {
        this.bindings = Map.copyOf(bindings);
        this.environment = new Hashtable<>(environment);
    }

    @Override
    public Object lookup(String name) throws NamingException {
        if (name == null || name.isEmpty()) {
            return this;
        }
        if (name.startsWith(DYNAMIC_TOPICS) && name.length() > DYNAMIC_TOPICS.length()) {
            return new Fjm2Topic(name.substring(DYNAMIC_TOPICS.length()));
        }
        Object value = bindings.get(name);
        if (value == null) {
            throw new NameNotFoundException(name + " is not bound (configure connectionFactory." + name + " or topic."
                    + name + " in jndi.properties, or look up dynamicTopics/" + name + ")");
        }
        return value;
    }

    @Override
    public Object lookup(Name name) throws NamingException {
        return lookup(name.toString());
    }

    @Override
    public NamingEnumeration<NameClassPair> list(String name) throws NamingException {
        requireRoot(name);
        return enumerate(e -> new NameClassPair(e.getKey(), e.getValue().getClass().getName()));
    }

    @Override
    public NamingEnumeration<NameClassPair> list(Name name) throws NamingException {
        return list(name.toString());
    }

    @Override
    public NamingEnumeration<Binding> listBindings(String name) throws NamingException {
        requireRoot(name);
        return enumerate(e -> new Binding(e.getKey(), e.getValue()));
    }

    @Override
    public NamingEnumeration<Binding> listBindings(Name name) throws NamingException {
        return listBindings(name.toString());
    }

    private static void requireRoot(String name) throws NamingException {
        if (name != null && !name.isEmpty()) {
            throw new NameNotFoundException("the FJM2 JNDI context is flat; no sub-context " + name);
        }
    }

    private <T> NamingEnumeration<T> enumerate(Function<Map.Entry<String, Object>, T> mapper) {
        Iterator<Map.Entry<String, Object>> it = bindings.entrySet().iterator();
        return new NamingEnumeration<>() {
            @Override
            public T next() {
                return mapper.apply(it.next());
            }

            @Override
            public boolean hasMore() {
                return it.hasNext();
            }

            @Override
            public void close() {
            }

            @Override
            public boolean hasMoreElements() {
                return it.hasNext();
            }

            @Override
            public T nextElement() {
                if (!it.hasNext()) {
                    throw new NoSuchElementException();
                }
                return next();
            }
        };
    }

    private static OperationNotSupportedException readOnly() {
        return new OperationNotSupportedException("the FJM2 JNDI context is read-only: configure it through"
                + " jndi.properties or the InitialContext environment");
    }

    @Override
    public void bind(Name name, Object obj) throws NamingException {
        throw readOnly();
    }

    @Override
    public void bind(String name, Object obj) throws NamingException {
        throw readOnly();
    }

    @Override
    public void rebind(Name name, Object obj) throws NamingException {
        throw readOnly();
    }

    @Override
    public void rebind(String name, Object obj) throws NamingException {
        throw readOnly();
    }

    @Override
    public void unbind(Name name) throws NamingException {
        throw readOnly();
    }

    @Override
    public void unbind(String name) throws NamingException {
        throw readOnly();
    }

    @Override
    public void rename(Name oldName, Name newName) throws NamingException {
        throw readOnly();
    }

    @Override
    public void rename(String oldName, String newName) throws NamingException {
        throw readOnly();
    }

    @Override
    public void destroySubcontext(Name name) throws NamingException {
        throw readOnly();
    }

    @Override
    public void destroySubcontext(String name) throws NamingException {
        throw readOnly();
    }

    @Override
    public Context createSubcontext(Name name) throws NamingException {
        throw readOnly();
    }

    @Override
    public Context createSubcontext(String name) throws NamingException {
        throw readOnly();
    }

    @Override
    public Object lookupLink(Name name) throws NamingException {
        return lookup(name);
    }

    @Override
    public Object lookupLink(String name) throws NamingException {
        return lookup(name);
    }

    @Override
    public NameParser getNameParser(Name name) {
        return CompositeName::new;
    }

    @Override
    public NameParser getNameParser(String name) {
        return CompositeName::new;
    }

    @Override
    public Name composeName(Name name, Name prefix) throws NamingException {
        return ((Name) prefix.clone()).addAll(name);
    }

    @Override
    public String composeName(String name, String prefix) {
        return prefix == null || prefix.isEmpty() ? name : prefix + "/" + name;
    }

    @Override
    public Object addToEnvironment(String propName, Object propVal) {
        return environment.put(propName, propVal);
    }

    @Override
    public Object removeFromEnvironment(String propName) {
        return environment.remove(propName);
    }

    @Override
    public Hashtable<?, ?> getEnvironment() {
        return new Hashtable<>(environment);
    }

    @Override
    public void close() {
    }

    @Override
    public String getNameInNamespace() {
        return "";
    }

    /** The names bound, for diagnostics. */
    @Override
    public String toString() {
        return "Fjm2 JNDI context " + Collections.unmodifiableSet(bindings.keySet());
    }
}
