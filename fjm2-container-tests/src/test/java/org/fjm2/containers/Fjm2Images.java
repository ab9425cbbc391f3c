package org.fjm2.containers;

import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The containers of the tests: the official images, the built {@code fjm2-admin.war} and the built distribution
 * ({@code fjm2-cli/target/lib}, what {@code bin/fjm2} runs). Build them first: {@code ./mvnw -DskipTests install}.
 */
final class Fjm2Images {

    /** A Java runtime for the distribution: the project's Java release. */
    static final DockerImageName JAVA = DockerImageName.parse("eclipse-temurin:17-jre");
    static final DockerImageName TOMCAT = DockerImageName.parse("tomcat:10.1-jdk17-temurin");
    static final DockerImageName JETTY = DockerImageName.parse("jetty:12.0-jdk17");

    /** The HTTP port of both servlet containers. */
    static final int HTTP_PORT = 8080;
    static final String CONTEXT_PATH = "/fjm2-admin";
    /** The bearer token the admin accepts and the daemons present (16..1024 printable characters). */
    static final String TOKEN = "container-test-token-0123456789";
    /** The tunnel key the daemons share (at least 16 bytes). */
    static final String TUNNEL_KEY = "container-test-tunnel-key-0123456789";
    /** Readable by the owner only: the admin and the daemon refuse token and key files others may read. */
    static final int OWNER_ONLY = 0600;

    private static final String LIB = "/opt/fjm2/lib/";
    static final String TOKEN_FILE = "/opt/fjm2/admin.token";
    static final String KEY_FILE = "/opt/fjm2/tunnel.key";

    private Fjm2Images() {
    }

    static Path adminWar() {
        return built("fjm2.admin.war", "the FJM2-Admin WAR");
    }

    /** A JVM container with the distribution, running {@code fjm2 ARGS...} as bin/fjm2 would. */
    static GenericContainer<?> fjm2(Network network, String alias, String... args) {
        List<String> command = new ArrayList<>(List.of("java", "-Djava.net.preferIPv4Stack=true",
                "-cp", LIB + "*", "org.fjm2.cli.Fjm2"));
        command.addAll(List.of(args));
        GenericContainer<?> c = new GenericContainer<>(JAVA)
                .withNetwork(network)
                .withNetworkAliases(alias)
                .withCopyToContainer(Transferable.of(TOKEN, OWNER_ONLY), TOKEN_FILE)
                .withCopyToContainer(Transferable.of(TUNNEL_KEY, OWNER_ONLY), KEY_FILE)
                .withCommand(command.toArray(String[]::new));
        try (Stream<Path> jars = Files.list(built("fjm2.cli.lib", "the distribution's lib directory"))) {
            jars.filter(p -> p.toString().endsWith(".jar")).forEach(jar ->
                    c.withCopyToContainer(MountableFile.forHostPath(jar), LIB + jar.getFileName()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return c;
    }

    static Transferable text(String s) {
        return Transferable.of(s.getBytes(StandardCharsets.UTF_8));
    }

    private static Path built(String property, String what) {
        String value = System.getProperty(property);
        if (value == null || !Files.exists(Path.of(value))) {
            throw new IllegalStateException(what + " is missing (" + property + "=" + value
                    + "): build it first with ./mvnw -DskipTests install");
        }
        return Path.of(value);
    }
}
