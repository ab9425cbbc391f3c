package org.fjm2.tunnel.admin;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The certificate authorities a daemon trusts for FJM2-Admin's HTTPS ({@code --admin-ca FILE}): the certificates
 * of one file (PEM, one or more, or DER), and nothing else, not even the JDK's default authorities, so that only
 * the operator's CA (or the admin's self-signed certificate itself) vouches for the admin. The host name in the
 * admin URL is checked against the certificate as usual.
 */
public final class AdminTrust {

    private AdminTrust() {
    }

    /**
     * An SSL context trusting exactly the certificates of {@code caFile}.
     *
     * @throws IllegalArgumentException with a one-line reason when the file cannot be read or holds no certificate
     */
    public static SSLContext fromFile(Path caFile) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(caFile); // bytes: PEM or DER, no text decoding
        } catch (IOException e) {
            throw new IllegalArgumentException("--admin-ca: cannot read " + caFile + ": " + e.getMessage());
        }
        try {
            Collection<? extends Certificate> certificates = CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(bytes));
            if (certificates.isEmpty()) {
                throw new IllegalArgumentException("--admin-ca: " + caFile + " holds no certificate");
            }
            KeyStore anchors = KeyStore.getInstance(KeyStore.getDefaultType());
            anchors.load(null, null);
            int i = 0;
            for (Certificate c : certificates) {
                anchors.setCertificateEntry("fjm2-admin-ca-" + i++, c);
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(anchors);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, tmf.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException("--admin-ca: " + caFile + " is not a PEM or DER certificate file: "
                    + e.getMessage());
        }
    }
}
