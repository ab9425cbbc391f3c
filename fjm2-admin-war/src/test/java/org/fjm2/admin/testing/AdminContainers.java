package org.fjm2.admin.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * What the embedded-container helpers ({@link EmbeddedTomcat}, {@link EmbeddedJetty}) share: the built WAR
 * (system property {@link #WAR_PROPERTY}), a token file, and the running-server handle. Each container has its
 * own class so that a test needing one container does not need the other on its class path.
 */
public final class AdminContainers {

    /** System property naming the WAR file; set by the build (failsafe here, surefire in fjm2-tunnel). */
    public static final String WAR_PROPERTY = "fjm2.admin.war";

    private AdminContainers() {
    }

    /** The built WAR. */
    public static Path war() {
        String path = System.getProperty(WAR_PROPERTY);
        if (path == null || !Files.isRegularFile(Path.of(path))) {
            throw new IllegalStateException("system property " + WAR_PROPERTY + " must name the built WAR (got "
                    + path + "); run the tests through Maven after 'package'");
        }
        return Path.of(path);
    }

    /** Writes {@code tokens}, one a line, to a new file readable by its owner only. */
    public static Path tokenFile(Path dir, String... tokens) {
        try {
            Path file = dir.resolve("admin.token");
            Files.writeString(file, "# FJM2-Admin test token(s)\n" + String.join("\n", tokens) + "\n");
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    interface Stopper {
        void stop() throws Exception;
    }

    static void stopQuietly(Stopper stopper) {
        try {
            stopper.stop();
        } catch (Exception ignored) {
            // already failing; the original exception is the one to report
        }
    }

    record Running(String container, URI baseUri, Stopper stopper) implements AdminServer {
        @Override
        public void close() {
            try {
                stopper.stop();
            } catch (Exception e) {
                throw new IllegalStateException(container + " did not stop cleanly", e);
            }
        }
    }
}
