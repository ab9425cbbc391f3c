package org.fjm2.bench.norm;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The NRL NORM peer (benchmarks/src/main/native/nrlbench.cpp, packaged as the class-path resource
 * {@value #SOURCE_RESOURCE}), compiled at run time with g++ against Debian's libnorm-dev into
 * {@code benchmarks/target/native} (or {@code target/native} when run from the benchmarks module, else the temporary
 * directory). It is recompiled whenever the source differs from the copy kept next to the binary.
 */
public final class NrlBenchBinary {

    static final String SOURCE_RESOURCE = "/native/nrlbench.cpp";
    /** libnorm's C++ API header, installed by libnorm-dev. */
    static final Path NORM_HEADER = Path.of("/usr/include/normApi.h");
    /** Longest a compile may take. */
    static final long COMPILE_TIMEOUT_SECONDS = 120;

    private NrlBenchBinary() {
    }

    /** Why the NRL peer cannot be built here, or null when it can. */
    public static String unavailableReason() {
        boolean header = Files.exists(NORM_HEADER);
        boolean compiler = onPath("g++");
        if (header && compiler) {
            return null;
        }
        return "the NRL NORM peer needs " + (header ? "" : "libnorm-dev (" + NORM_HEADER + " missing)")
                + (header || compiler ? "" : " and ") + (compiler ? "" : "g++ (not on PATH)")
                + ": apt-get install -y libnorm-dev g++";
    }

    /** The compiled binary, building it first when missing or stale. */
    public static synchronized Path ensureBuilt() throws IOException, InterruptedException {
        String reason = unavailableReason();
        if (reason != null) {
            throw new IllegalStateException(reason);
        }
        String source;
        try (InputStream in = NrlBenchBinary.class.getResourceAsStream(SOURCE_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(SOURCE_RESOURCE + " is not on the class path (rebuild benchmarks)");
            }
            source = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Path dir = outputDirectory();
        Files.createDirectories(dir);
        Path copy = dir.resolve("nrlbench.cpp");
        Path binary = dir.resolve("nrlbench");
        if (Files.isExecutable(binary) && Files.exists(copy) && Files.readString(copy).equals(source)) {
            return binary;
        }
        Files.writeString(copy, source);
        Path log = dir.resolve("nrlbench-compile.log");
        Process gpp = new ProcessBuilder("g++", "-O2", "-Wall", "-std=c++17", "-o", binary.toString(),
                copy.toString(), "-lnorm").redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!gpp.waitFor(COMPILE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            gpp.destroyForcibly();
            throw new IllegalStateException("g++ took longer than " + COMPILE_TIMEOUT_SECONDS + " s");
        }
        if (gpp.exitValue() != 0) {
            Files.deleteIfExists(copy); // compile again next time
            throw new IllegalStateException("compiling the NRL NORM peer failed (is libnorm-dev complete?):\n"
                    + Files.readString(log));
        }
        return binary;
    }

    private static Path outputDirectory() {
        if (Files.isDirectory(Path.of("benchmarks", "src"))) {
            return Path.of("benchmarks", "target", "native");
        }
        if (Files.isDirectory(Path.of("src", "main", "native"))) {
            return Path.of("target", "native");
        }
        return Path.of(System.getProperty("java.io.tmpdir"), "fjm2-bench-native");
    }

    private static boolean onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }
}
