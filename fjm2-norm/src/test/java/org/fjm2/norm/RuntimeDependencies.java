package org.fjm2.norm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What an application that depends on the module under test gets on its class path: the compile and runtime
 * dependencies, as the build wrote them to {@value #FILE} (the parent pom's {@code runtime-classpath} execution).
 * Libraries users embed carry no CLI framework and no logging backend (shared/DESIGN.md).
 */
public final class RuntimeDependencies {

    public static final String FILE = "target/runtime-classpath.txt";

    /** Artifacts an embeddable library must not bring: a CLI framework, a logging backend or binding. */
    public static final Pattern FORBIDDEN = Pattern.compile(
            "(^|/)(info/picocli|ch/qos/logback|org/apache/logging/log4j|org/slf4j/slf4j-(simple|reload4j|jdk14|nop))/");

    private RuntimeDependencies() {
    }

    /** Every entry of the runtime class path, as a path with '/' separators. */
    public static List<String> entries() throws IOException {
        Path file = Path.of(FILE);
        if (!Files.exists(file)) {
            throw new IllegalStateException(FILE + " is missing: run the tests through Maven, which writes it "
                    + "(dependency:build-classpath in generate-test-resources)");
        }
        String text = Files.readString(file).trim();
        return text.isEmpty() ? List.of() : List.of(text.split(Pattern.quote(File.pathSeparator))).stream()
                .map(entry -> entry.replace(File.separatorChar, '/')).toList();
    }

    /**
     * Fails unless the runtime class path was written (it holds {@code expectedEntry}, a path fragment such as
     * {@code /org/slf4j/slf4j-api/}) and has nothing {@link #FORBIDDEN}.
     */
    public static void assertEmbeddable(String expectedEntry) throws IOException {
        assertThat(entries()).as("the build wrote the runtime class path").anyMatch(e -> e.contains(expectedEntry));
        assertThat(forbidden()).as("a CLI framework or logging backend an application would get").isEmpty();
    }

    /** The entries an embeddable library must not have. */
    public static List<String> forbidden() throws IOException {
        return entries().stream().filter(entry -> FORBIDDEN.matcher(entry).find()).toList();
    }
}
