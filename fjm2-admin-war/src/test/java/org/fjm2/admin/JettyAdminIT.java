package org.fjm2.admin;

import java.nio.file.Path;
import java.util.Map;
import org.fjm2.admin.testing.EmbeddedJetty;
import org.fjm2.admin.testing.AdminServer;
import org.fjm2.admin.testing.TestCertificates;

/** The FJM2-Admin contract in a real embedded Jetty 12 (ee10). */
class JettyAdminIT extends AdminApiContract {
    @Override
    AdminServer deploy(Path workDir, Map<String, String> contextParameters) {
        return EmbeddedJetty.deploy(workDir, contextParameters);
    }

    @Override
    AdminServer deployTls(Path workDir, Map<String, String> contextParameters, TestCertificates tls) {
        return EmbeddedJetty.deployTls(workDir, contextParameters, tls);
    }
}
