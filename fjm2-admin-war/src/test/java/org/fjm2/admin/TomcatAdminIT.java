package org.fjm2.admin;

import java.nio.file.Path;
import java.util.Map;
import org.fjm2.admin.testing.EmbeddedTomcat;
import org.fjm2.admin.testing.AdminServer;
import org.fjm2.admin.testing.TestCertificates;

/** The FJM2-Admin contract in a real embedded Tomcat 10.1. */
class TomcatAdminIT extends AdminApiContract {
    @Override
    AdminServer deploy(Path workDir, Map<String, String> contextParameters) {
        return EmbeddedTomcat.deploy(workDir, contextParameters);
    }

    @Override
    AdminServer deployTls(Path workDir, Map<String, String> contextParameters, TestCertificates tls) {
        return EmbeddedTomcat.deployTls(workDir, contextParameters, tls);
    }
}
