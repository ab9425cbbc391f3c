package org.fjm2.admin;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import javax.sql.DataSource;

/**
 * The registry's durable form: two tables reached through plain, portable JDBC (no upsert dialect), written only
 * by the {@link RegistryAgent}'s thread, one transaction per batch of changes. The connection is kept open
 * between batches and opened again after a failure.
 */
final class NodeDatabase implements AutoCloseable {

    static final String NODE_TABLE = "fjm2_admin_node";
    static final String STATE_TABLE = "fjm2_admin_state";
    private static final String LAST_MODIFIED = "last_modified";

    private static final String[] SCHEMA = {
        "CREATE TABLE IF NOT EXISTS " + NODE_TABLE + " (id VARCHAR(64) PRIMARY KEY, host VARCHAR(253) NOT NULL,"
                + " port INTEGER NOT NULL, registered BIGINT NOT NULL, last_seen BIGINT NOT NULL)",
        // (the owner column is added by addOwnerColumnIfMissing, for new and old databases alike)
        "CREATE TABLE IF NOT EXISTS " + STATE_TABLE + " (name VARCHAR(32) PRIMARY KEY, state_value BIGINT NOT NULL)"
    };
    /** Added after the first release: databases created before it get the column on open. */
    private static final String OWNER_COLUMN = "owner_token";

    private final DataSource dataSource;
    private Connection connection;

    NodeDatabase(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Creates the tables if needed and reads the stored registry. */
    RegistrySnapshot open() throws SQLException {
        Connection c = connection();
        try (Statement s = c.createStatement()) {
            for (String ddl : SCHEMA) {
                s.execute(ddl);
            }
            c.commit();
        }
        addOwnerColumnIfMissing(c);
        List<Node> nodes = new ArrayList<>();
        long lastModified = 0;
        try (Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery(
                    "SELECT id, host, port, registered, last_seen, " + OWNER_COLUMN + " FROM " + NODE_TABLE
                            + " ORDER BY id")) {
                while (rs.next()) {
                    nodes.add(new Node(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getLong(4), rs.getLong(5),
                            rs.getString(6)));
                }
            }
            try (ResultSet rs = s.executeQuery(
                    "SELECT state_value FROM " + STATE_TABLE + " WHERE name = '" + LAST_MODIFIED + "'")) {
                if (rs.next()) {
                    lastModified = rs.getLong(1);
                }
            }
            c.commit();
        }
        return new RegistrySnapshot(lastModified, nodes);
    }

    /** Portable: the column is looked up in the metadata (any case the database folds names to) before adding it. */
    private static void addOwnerColumnIfMissing(Connection c) throws SQLException {
        DatabaseMetaData meta = c.getMetaData();
        for (String table : new String[] {NODE_TABLE, NODE_TABLE.toUpperCase(Locale.ROOT)}) {
            try (ResultSet columns = meta.getColumns(null, null, table, null)) {
                while (columns.next()) {
                    if (columns.getString("COLUMN_NAME").equalsIgnoreCase(OWNER_COLUMN)) {
                        return;
                    }
                }
            }
        }
        try (Statement s = c.createStatement()) {
            s.execute("ALTER TABLE " + NODE_TABLE + " ADD " + OWNER_COLUMN + " VARCHAR(" + TokenSet.OWNER_LENGTH + ")");
            c.commit();
        }
    }

    /**
     * Writes one batch atomically: every upsert, every delete and the new stamp, or nothing.
     *
     * @param previousLastModified the stamp stored so far (0 when none was stored: the state row is inserted)
     */
    void write(Collection<Node> upserts, Collection<String> deletes, long previousLastModified, long lastModified)
            throws SQLException {
        Connection c = connection();
        try {
            upsert(c, upserts);
            if (!deletes.isEmpty()) {
                try (PreparedStatement delete = c.prepareStatement("DELETE FROM " + NODE_TABLE + " WHERE id = ?")) {
                    for (String id : deletes) {
                        delete.setString(1, id);
                        delete.addBatch();
                    }
                    delete.executeBatch();
                }
            }
            if (lastModified != previousLastModified) {
                writeLastModified(c, lastModified);
            }
            c.commit();
        } catch (SQLException | RuntimeException e) {
            discardConnection();
            throw e;
        }
    }

    private static void upsert(Connection c, Collection<Node> nodes) throws SQLException {
        if (nodes.isEmpty()) {
            return;
        }
        List<Node> missing = new ArrayList<>();
        try (PreparedStatement update = c.prepareStatement(
                "UPDATE " + NODE_TABLE + " SET host = ?, port = ?, registered = ?, last_seen = ?, " + OWNER_COLUMN
                        + " = ? WHERE id = ?")) {
            for (Node n : nodes) {
                update.setString(1, n.host());
                update.setInt(2, n.port());
                update.setLong(3, n.registered());
                update.setLong(4, n.lastSeen());
                update.setString(5, n.owner());
                update.setString(6, n.id());
                update.addBatch();
            }
            int[] counts = update.executeBatch();
            int i = 0;
            for (Node n : nodes) {
                if (counts[i++] == 0) {
                    missing.add(n);
                }
            }
        }
        if (missing.isEmpty()) {
            return;
        }
        try (PreparedStatement insert = c.prepareStatement(
                "INSERT INTO " + NODE_TABLE + " (id, host, port, registered, last_seen, " + OWNER_COLUMN
                        + ") VALUES (?, ?, ?, ?, ?, ?)")) {
            for (Node n : missing) {
                insert.setString(1, n.id());
                insert.setString(2, n.host());
                insert.setInt(3, n.port());
                insert.setLong(4, n.registered());
                insert.setLong(5, n.lastSeen());
                insert.setString(6, n.owner());
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    private static void writeLastModified(Connection c, long lastModified) throws SQLException {
        try (PreparedStatement update = c.prepareStatement(
                "UPDATE " + STATE_TABLE + " SET state_value = ? WHERE name = ?")) {
            update.setLong(1, lastModified);
            update.setString(2, LAST_MODIFIED);
            if (update.executeUpdate() > 0) {
                return;
            }
        }
        try (PreparedStatement insert = c.prepareStatement(
                "INSERT INTO " + STATE_TABLE + " (name, state_value) VALUES (?, ?)")) {
            insert.setString(1, LAST_MODIFIED);
            insert.setLong(2, lastModified);
            insert.executeUpdate();
        }
    }

    /**
     * Whether the database answers a query: {@code null} when it does, else the reason. A failed connection is
     * dropped, so that the next write opens a fresh one.
     */
    String problem() {
        try {
            Connection c = connection();
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + STATE_TABLE)) {
                rs.next();
            }
            c.commit();
            return null;
        } catch (SQLException | RuntimeException e) {
            discardConnection();
            return e.toString();
        }
    }

    private Connection connection() throws SQLException {
        if (connection == null || connection.isClosed()) {
            connection = dataSource.getConnection();
            connection.setAutoCommit(false);
        }
        return connection;
    }

    private void discardConnection() {
        if (connection == null) {
            return;
        }
        try {
            connection.rollback();
            connection.close();
        } catch (SQLException ignored) {
            // the connection is being thrown away; the caller reports the original failure
        }
        connection = null;
    }

    @Override
    public void close() throws SQLException {
        if (connection != null) {
            Connection c = connection;
            connection = null;
            c.close();
        }
    }
}
