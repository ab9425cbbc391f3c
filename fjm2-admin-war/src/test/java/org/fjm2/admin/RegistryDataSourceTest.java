package org.fjm2.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import javax.sql.DataSource;
import org.fjm2.admin.testing.CapturedLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A start without a container DataSource is quiet: one INFO line saying where the registry lives, no exception
 * text. (It used to log {@code javax.naming.NoInitialContextException: Need to specify class name in environment
 * ...} at INFO at every start of {@code fjm2 admin}, whose embedded Tomcat has no JNDI naming.)
 */
class RegistryDataSourceTest {

    @TempDir
    Path dir;

    AdminSettings settings(String dataSource) {
        return AdminSettings.read(Map.of(AdminSettings.TOKENS, "quiet-token-0123456789",
                AdminSettings.DATA_DIR, dir.toString(), AdminSettings.DATA_SOURCE, dataSource)::get);
    }

    @Test
    void aJvmWithoutJndiNamingGetsTheEmbeddedDatabaseWithOneCalmLine() throws Exception {
        try (CapturedLog log = new CapturedLog(RegistryDataSource.class)) {
            DataSource chosen = RegistryDataSource.choose(settings(AdminSettings.DEFAULT_DATA_SOURCE));
            assertThat(chosen).isInstanceOf(org.h2.jdbcx.JdbcDataSource.class);
            assertThat(log.lines()).singleElement().asString()
                    .startsWith("INFO registry database: embedded H2 in " + dir.toAbsolutePath())
                    .contains("no JNDI naming")
                    .doesNotContain("Exception", "java.naming.factory.initial");
        }
    }

    @Test
    void noneSkipsTheLookup() throws Exception {
        try (CapturedLog log = new CapturedLog(RegistryDataSource.class)) {
            assertThat(RegistryDataSource.choose(settings("none"))).isInstanceOf(org.h2.jdbcx.JdbcDataSource.class);
            assertThat(log.lines()).singleElement().asString().contains("no container DataSource configured");
        }
    }
}
