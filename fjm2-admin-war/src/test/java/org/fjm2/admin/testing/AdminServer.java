package org.fjm2.admin.testing;

import java.net.URI;

/** A running FJM2-Admin WAR in some servlet container, on loopback. */
public interface AdminServer extends AutoCloseable {

    /** {@code http://127.0.0.1:PORT/} */
    URI baseUri();

    /** Which container runs it, for messages. */
    String container();

    /** Stops the container and undeploys the WAR (closing its database). */
    @Override
    void close();
}
