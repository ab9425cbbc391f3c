package org.fjm2.admin;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.naming.InitialContext;
import javax.naming.NameNotFoundException;
import javax.naming.NamingException;
import javax.naming.NoInitialContextException;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses where the registry lives: the container's DataSource at {@link AdminSettings#dataSourceName()} when
 * there is one, else an embedded H2 file database in {@link AdminSettings#dataDir()}. Either way one INFO line
 * says which. A container without JNDI naming (an embedded Tomcat without naming, Jetty without {@code ee10-plus})
 * throws {@code NoInitialContextException} on any lookup: that is a normal setup, not an error, so it is logged as
 * part of that line rather than as an exception; {@link #NONE} skips the lookup altogether.
 */
final class RegistryDataSource {

    /** File name (without H2's {@code .mv.db} suffix) of the embedded database in the data directory. */
    static final String H2_DATABASE_NAME = "fjm2-admin";

    /** Value of {@link AdminSettings#DATA_SOURCE} that means: no container DataSource, do not look one up. */
    static final String NONE = "none";

    private static final Logger LOG = LoggerFactory.getLogger(RegistryDataSource.class);

    private RegistryDataSource() {
    }

    static DataSource choose(AdminSettings settings) throws IOException {
        String name = settings.dataSourceName();
        if (name.equalsIgnoreCase(NONE)) {
            return embedded(settings.dataDir(), "no container DataSource configured");
        }
        try {
            Object found = new InitialContext().lookup(name);
            if (found instanceof DataSource ds) {
                LOG.info("registry database: container DataSource {}", name);
                return ds;
            }
            LOG.warn("{} is a {}, not a DataSource; using the embedded database", name,
                    found == null ? "null" : found.getClass().getName());
            return embedded(settings.dataDir(), name + " is not a DataSource");
        } catch (NoInitialContextException e) {
            return embedded(settings.dataDir(), "the container offers no JNDI naming");
        } catch (NameNotFoundException e) {
            return embedded(settings.dataDir(), "no container DataSource at " + name);
        } catch (NamingException e) {
            // Declared but broken: falling back would put the registry somewhere the deployer did not mean.
            throw new IllegalArgumentException("the container DataSource " + name + " cannot be looked up: " + e, e);
        }
    }

    /** An H2 file database in {@code dir}, created with the directory if needed. */
    static DataSource embedded(Path dir) throws IOException {
        return embedded(dir, null);
    }

    private static DataSource embedded(Path dir, String why) throws IOException {
        Files.createDirectories(dir);
        JdbcDataSource h2 = new JdbcDataSource();
        // LOCK_TIMEOUT: a second process on the same directory waits, then fails with a clear error.
        h2.setURL("jdbc:h2:file:" + dir.toAbsolutePath().resolve(H2_DATABASE_NAME) + ";LOCK_TIMEOUT=10000");
        LOG.info("registry database: embedded H2 in {}{}", dir.toAbsolutePath(), why == null ? "" : " (" + why + ")");
        return h2;
    }
}
