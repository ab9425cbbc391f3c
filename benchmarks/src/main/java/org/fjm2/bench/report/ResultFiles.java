package org.fjm2.bench.report;

import java.nio.file.Path;

/**
 * Where a benchmark writes its CSV and PNG files. By default a directory under the system's temporary directory, so
 * that a run never rewrites the results committed in benchmarks/results (those are written with an explicit
 * {@code --out benchmarks/results}, as benchmarks/RESULTS.md shows); each file written is named on stdout.
 */
public final class ResultFiles {

    /** The default of every scenario's {@code --out} (a picocli default: the property is read when parsing). */
    public static final String DEFAULT_DIRECTORY = "${sys:java.io.tmpdir}/fjm2-bench";

    private ResultFiles() {
    }

    /** Says where a result file went, so that a run with the default directory can be found. */
    static void written(Path file) {
        System.out.println("wrote " + file.toAbsolutePath());
    }
}
