package org.fjm2.jms;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.TopicConnection;
import jakarta.jms.TopicConnectionFactory;

import javax.naming.NamingException;
import javax.naming.Reference;
import javax.naming.Referenceable;
import javax.naming.StringRefAddr;
import java.io.Serializable;

/**
 * The entry point: {@code new Fjm2ConnectionFactory("norm://239.255.0.1:6003?interface=lo")}, or
 * {@code inmem://NAME} for tests in one JVM. The URL's scheme picks the transport (found with ServiceLoader) and
 * its query holds every tunable: the JMS layer's own (see {@link JmsParameters}) and the transport's. The URL is
 * checked when it is set, so a typo fails here, naming the parameter, rather than at the first connection.
 *
 * <p>Serializable and Referenceable (bind it in JNDI; {@code org.fjm2.jms.jndi.Fjm2ObjectFactory} rebuilds it).
 * FJM2 authenticates groups with keys, not users: a user name and password given to {@code createConnection},
 * {@code createTopicConnection} or {@code createContext} are ignored (a WARN says so once per JVM); protect a group
 * with the URL parameters {@code security} and {@code keyFile}.
 */
public class Fjm2ConnectionFactory implements ConnectionFactory, TopicConnectionFactory, Serializable,
        Referenceable {

    private static final long serialVersionUID = 1L;
    /** The reference address type holding the URL. */
    public static final String REF_URL = "url";

    private String url;
    private transient volatile ConnectionSettings settings;

    /** A factory whose URL is set later with {@link #setUrl(String)} (bean style). */
    public Fjm2ConnectionFactory() {
    }

    /**
     * @param url {@code SCHEME://ADDRESS?name=value&...}, e.g. {@code norm://239.255.0.1:6003?interface=lo}
     * @throws JMSException naming the parameter when the URL or one of its values is wrong
     */
    public Fjm2ConnectionFactory(String url) throws JMSException {
        setUrl(url);
    }

    /** Sets and checks the URL. */
    public void setUrl(String url) throws JMSException {
        this.settings = ConnectionSettings.parse(url);
        this.url = url;
    }

    public String getUrl() {
        return url;
    }

    private ConnectionSettings settings() throws JMSException {
        ConnectionSettings s = settings;
        if (s == null) {
            if (url == null) {
                throw new JMSException("Fjm2ConnectionFactory has no URL: call setUrl(...) first");
            }
            s = ConnectionSettings.parse(url);
            settings = s;
        }
        return s;
    }

    @Override
    public Connection createConnection() throws JMSException {
        return new Fjm2Connection(settings());
    }

    @Override
    public Connection createConnection(String userName, String password) throws JMSException {
        IgnoredCredentials.given(userName, password);
        return createConnection();
    }

    @Override
    public TopicConnection createTopicConnection() throws JMSException {
        return new Fjm2Connection(settings());
    }

    @Override
    public TopicConnection createTopicConnection(String userName, String password) throws JMSException {
        IgnoredCredentials.given(userName, password);
        return createTopicConnection();
    }

    @Override
    public JMSContext createContext() {
        return createContext(JMSContext.AUTO_ACKNOWLEDGE);
    }

    @Override
    public JMSContext createContext(String userName, String password) {
        IgnoredCredentials.given(userName, password);
        return createContext(JMSContext.AUTO_ACKNOWLEDGE);
    }

    @Override
    public JMSContext createContext(String userName, String password, int sessionMode) {
        IgnoredCredentials.given(userName, password);
        return createContext(sessionMode);
    }

    @Override
    public JMSContext createContext(int sessionMode) {
        Fjm2JMSContext.checkSessionMode(sessionMode);
        try {
            return new Fjm2JMSContext(new Fjm2Connection(settings()), sessionMode);
        } catch (JMSSecurityException e) {
            throw new jakarta.jms.JMSSecurityRuntimeException(e.getMessage(), e.getErrorCode(), e);
        } catch (JMSException e) {
            throw new JMSRuntimeException(e.getMessage(), e.getErrorCode(), e);
        }
    }

    @Override
    public Reference getReference() throws NamingException {
        Reference ref = new Reference(Fjm2ConnectionFactory.class.getName(),
                "org.fjm2.jms.jndi.Fjm2ObjectFactory", null);
        ref.add(new StringRefAddr(REF_URL, url));
        return ref;
    }

    @Override
    public String toString() {
        return "Fjm2ConnectionFactory[" + url + "]";
    }
}
