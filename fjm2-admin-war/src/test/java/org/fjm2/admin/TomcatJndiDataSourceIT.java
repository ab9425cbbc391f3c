package org.fjm2.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.tomcat.util.descriptor.web.ContextResource;
import org.fjm2.admin.testing.AdminContainers;
import org.fjm2.admin.testing.AdminHttp;
import org.fjm2.admin.testing.AdminServer;
import org.fjm2.admin.testing.EmbeddedTomcat;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A DataSource the container provides at java:comp/env/jdbc/fjm2admin is used instead of the embedded one. */
class TomcatJndiDataSourceIT {

    @TempDir
    Path dir;

    @Test
    void storesTheRegistryInTheContainersDataSource() throws Exception {
        String url = "jdbc:h2:file:" + dir.resolve("container-db").resolve("registry");
        Path dataDir = dir.resolve("unused-data-dir");
        try (AdminServer server = EmbeddedTomcat.deployWithNaming(dir.resolve("tomcat"), Map.of(
                AdminSettings.TOKEN_FILE, AdminContainers.tokenFile(dir, AdminApiContract.TOKEN).toString(),
                AdminSettings.DATA_DIR, dataDir.toString(), AdminSettings.ALLOW_LOOPBACK, "true"), context -> {
                    ContextResource resource = new ContextResource();
                    resource.setName("jdbc/fjm2admin");
                    resource.setType("org.h2.jdbcx.JdbcDataSource");
                    resource.setProperty("factory", "org.h2.jdbcx.JdbcDataSourceFactory");
                    resource.setProperty("url", url);
                    resource.setProperty("user", "sa");
                    resource.setProperty("password", "");
                    resource.setProperty("description", "FJM2-Admin registry");
                    resource.setProperty("loginTimeout", "0");
                    context.getNamingResources().addResource(resource);
                })) {
            AdminHttp http = new AdminHttp(server.baseUri(), AdminApiContract.TOKEN);
            assertThat(http.register("via-jndi", "127.0.0.1", 9).statusCode()).isEqualTo(201);
        }
        assertThat(Files.exists(dataDir.resolve(RegistryDataSource.H2_DATABASE_NAME + ".mv.db")))
                .as("the embedded database was not used").isFalse();
        List<String> ids = new ArrayList<>();
        // Not DriverManager: it scanned for drivers while the web application was the context class loader.
        JdbcDataSource direct = new JdbcDataSource();
        direct.setURL(url);
        direct.setUser("sa");
        try (Connection c = direct.getConnection();
             ResultSet rs = c.createStatement().executeQuery("SELECT id FROM " + NodeDatabase.NODE_TABLE)) {
            while (rs.next()) {
                ids.add(rs.getString(1));
            }
        }
        assertThat(ids).containsExactly("via-jndi");
    }
}
