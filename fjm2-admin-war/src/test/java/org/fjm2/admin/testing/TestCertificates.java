package org.fjm2.admin.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A throw-away certificate authority and a server certificate it signed (for 127.0.0.1 and localhost), made at
 * test time with the JDK's {@code keytool}: no private key is ever checked in. The files are what an operator
 * would have: the CA's certificate (PEM), the server's chain (PEM, server first) and its unencrypted PKCS#8 key
 * (PEM), and the same key and chain as a PKCS#12 keystore (what {@code openssl pkcs12 -export} makes for Jetty).
 *
 * @param caCertificate the CA's certificate, the trust anchor a client is given
 * @param certificateChain the server's certificate followed by the CA's
 * @param privateKey the server's private key
 * @param pkcs12 the server's key and chain in a PKCS#12 keystore, password {@link #PASSWORD}
 */
public record TestCertificates(Path caCertificate, Path certificateChain, Path privateKey, Path pkcs12) {

    /** Password of every keystore made here (they live in a test's temporary directory only). */
    public static final String PASSWORD = "test-only-password";

    private static final long KEYTOOL_TIMEOUT_SECONDS = 120;

    /** Makes a CA named {@code name} and a server certificate it signed, in {@code dir}. */
    public static TestCertificates create(Path dir, String name) {
        try {
            Files.createDirectories(dir);
            Path ca = dir.resolve(name + "-ca.p12");
            Path server = dir.resolve(name + "-server.p12");
            keytool("-genkeypair", "-alias", "ca", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                    "-dname", "CN=" + name + " test CA", "-ext", "bc:c", "-keystore", ca.toString());
            keytool("-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                    "-dname", "CN=localhost", "-keystore", server.toString());
            Path csr = dir.resolve(name + "-server.csr");
            keytool("-certreq", "-alias", "server", "-keystore", server.toString(), "-file", csr.toString());
            Path signed = dir.resolve(name + "-server.crt");
            keytool("-gencert", "-alias", "ca", "-keystore", ca.toString(), "-infile", csr.toString(),
                    "-outfile", signed.toString(), "-rfc", "-validity", "2",
                    "-ext", "san=ip:127.0.0.1,dns:localhost", "-ext", "eku=serverAuth");
            Path caPem = dir.resolve(name + "-ca.pem");
            keytool("-exportcert", "-alias", "ca", "-keystore", ca.toString(), "-rfc", "-file", caPem.toString());

            Path chainPem = dir.resolve(name + "-server-chain.pem");
            Files.writeString(chainPem, Files.readString(signed) + Files.readString(caPem));
            PrivateKey key = (PrivateKey) load(server).getKey("server", PASSWORD.toCharArray());
            Path keyPem = dir.resolve(name + "-server-key.pem");
            Files.writeString(keyPem, pem("PRIVATE KEY", key.getEncoded()));

            KeyStore p12 = KeyStore.getInstance("PKCS12");
            p12.load(null, null);
            p12.setKeyEntry("server", key, PASSWORD.toCharArray(), certificates(chainPem).toArray(new Certificate[0]));
            Path p12File = dir.resolve(name + "-server-chain.p12");
            try (var out = Files.newOutputStream(p12File)) {
                p12.store(out, PASSWORD.toCharArray());
            }
            return new TestCertificates(caPem, chainPem, keyPem, p12File);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An SSL context that trusts this CA only: what a client configured with {@link #caCertificate} does. */
    public SSLContext trustingTheCa() {
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("ca", certificates(caCertificate).get(0));
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, tmf.getTrustManagers(), null);
            return context;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The certificates of a PEM file. */
    public static List<Certificate> certificates(Path pem) throws IOException, GeneralSecurityException {
        try (InputStream in = Files.newInputStream(pem)) {
            return new ArrayList<>(CertificateFactory.getInstance("X.509").generateCertificates(in));
        }
    }

    private static KeyStore load(Path p12) throws IOException, GeneralSecurityException {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(p12)) {
            ks.load(in, PASSWORD.toCharArray());
        }
        return ks;
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    private static void keytool(String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        command.addAll(List.of("-storetype", "PKCS12", "-storepass", PASSWORD, "-noprompt"));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(KEYTOOL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("keytool did not finish within " + KEYTOOL_TIMEOUT_SECONDS + " s: " + command);
            }
            if (p.exitValue() != 0) {
                throw new IOException("keytool failed (" + p.exitValue() + "): " + String.join(" ", args) + "\n"
                        + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
