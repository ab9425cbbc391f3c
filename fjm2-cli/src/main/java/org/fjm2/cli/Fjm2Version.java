package org.fjm2.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

import picocli.CommandLine;

/**
 * {@code fjm2 -V}: the version the build wrote into {@value #RESOURCE} (so that it is right when run from the
 * classes directory, as in tests, too), else the jar manifest's Implementation-Version.
 */
final class Fjm2Version implements CommandLine.IVersionProvider {

    static final String RESOURCE = "version.properties";
    static final String UNKNOWN = "development build";

    @Override
    public String[] getVersion() {
        return new String[] {"fjm2 " + version(),
                "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"};
    }

    /** The FJM2 version of this distribution, e.g. {@code 0.1.0}. */
    static String version() {
        try (InputStream in = Fjm2Version.class.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String v = p.getProperty("version", "");
                // An unfiltered copy (an IDE that skips the build's filtering) still holds the placeholder.
                if (!v.isEmpty() && !v.startsWith("${")) {
                    return v;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
        String fromManifest = Fjm2Version.class.getPackage().getImplementationVersion();
        return fromManifest == null ? UNKNOWN : fromManifest;
    }
}
