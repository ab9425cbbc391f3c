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
 * there is one, else an embedded H2 file database in {@link AdminSettings#dataDir()}.
 */
final class RegistryDataSource {

    /** File name (without H2's {@code .mv.db} suffix) of the embedded database in the data directory. */
    static final String H2_DATABASE_NAME = "fjm2-admin";

    private static final Logger LOG = LoggerFactory.getLogger(RegistryDataSource.class);

    private RegistryDataSource() {
    }

    static DataSource choose(AdminSettings settings) throws IOException {
        try {
            Object found = new InitialContext().lookup(settings.dataSourceName());
            if (found instanceof DataSource ds) {
                LOG.info("registry database: container DataSource {}", settings.dataSourceName());
                return ds;
            }
            LOG.warn("{} is a {}, not a DataSource; using the embedded database", settings.dataSourceName(),
                    found == null ? "null" : found.getClass().getName());
        } catch (NameNotFoundException | NoInitialContextException e) {
            LOG.info("no container DataSource at {} ({})", settings.dataSourceName(), e.toString());
        } catch (NamingException e) {
            // Declared but broken: falling back would put the registry somewhere the deployer did not mean.
            throw new IllegalArgumentException("the container DataSource " + settings.dataSourceName()
                    + " cannot be looked up: " + e, e);
        }
        return embedded(settings.dataDir());
    }

    /** An H2 file database in {@code dir}, created with the directory if needed. */
    static DataSource embedded(Path dir) throws IOException {
        Files.createDirectories(dir);
        JdbcDataSource h2 = new JdbcDataSource();
        // LOCK_TIMEOUT: a second process on the same directory waits, then fails with a clear error.
        h2.setURL("jdbc:h2:file:" + dir.toAbsolutePath().resolve(H2_DATABASE_NAME) + ";LOCK_TIMEOUT=10000");
        LOG.info("registry database: embedded H2 in {}", dir.toAbsolutePath());
        return h2;
    }
}
