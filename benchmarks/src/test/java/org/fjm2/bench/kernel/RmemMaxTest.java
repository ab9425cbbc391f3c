package org.fjm2.bench.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RmemMaxTest {

    @TempDir
    Path dir;

    @Test
    void rootIsEffectiveUserIdZero() {
        assertThat(RmemMax.whyNotRoot(List.of("Name:\tjava", "Uid:\t0\t0\t0\t0", "Gid:\t0\t0\t0\t0"))).isEmpty();
        assertThat(RmemMax.whyNotRoot(List.of("Uid:\t1000\t1000\t1000\t1000")))
                .hasValueSatisfying(why -> assertThat(why).contains("needs root").contains("user id 1000"));
        assertThat(RmemMax.whyNotRoot(List.of("Uid:\t0\t1000\t0\t0"))).as("real root, effective user").isPresent();
        assertThat(RmemMax.whyNotRoot(List.of("Name:\tjava"))).as("no Uid line").isPresent();
    }

    @Test
    void aProcFileIsWrittenAndCheckedByReadingItBack() throws IOException {
        Path file = dir.resolve("rmem_max");
        Files.writeString(file, "212992\n");
        Sysctl sysctl = new RmemMax.ProcFile(RmemMax.NAME, file);
        assertThat(sysctl.read()).isEqualTo(212_992);
        sysctl.write(8_388_608);
        assertThat(Files.readString(file)).isEqualTo("8388608\n");
        assertThat(sysctl.read()).isEqualTo(8_388_608);
    }

    @Test
    void garbageIsNoCap() throws IOException {
        Path file = dir.resolve("rmem_max");
        Files.writeString(file, "lots\n");
        assertThatThrownBy(() -> new RmemMax.ProcFile(RmemMax.NAME, file).read()).isInstanceOf(IOException.class)
                .hasMessageContaining("not a number");
        assertThatThrownBy(() -> new RmemMax.ProcFile(RmemMax.NAME, dir.resolve("missing")).read())
                .isInstanceOf(IOException.class);
    }

    /**
     * The machine-wide cap as the initial namespace shows it (where --rmem-max writes it from a private namespace) is the
     * cap this process's namespace shows (where the kernel shows one: Linux 6.10 and later, read-only). Reads only.
     */
    @Test
    void theCapReadInTheInitialNamespaceIsTheOneThisNamespaceShows() throws IOException {
        Assumptions.assumeTrue(RmemMax.whyNotRoot().isEmpty(), "needs root (nsenter)");
        Assumptions.assumeTrue(Files.isReadable(RmemMax.PROC_FILE), "this kernel shows no rmem_max in this namespace");
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/nsenter")) || Files.isExecutable(Path.of("/bin/nsenter")),
                "no nsenter");
        long here = new RmemMax.ProcFile(RmemMax.NAME, RmemMax.PROC_FILE).read();
        long initial = new RmemMax.InitNamespaceFile(RmemMax.NAME, RmemMax.PROC_FILE).read();
        assertThat(initial).isEqualTo(here);
        assertThat(RmemMax.current()).isEqualTo(OptionalLong.of(here));
        assertThat(RmemMax.sysctl().read()).isEqualTo(here);
        assertThat(RmemMax.sysctl()).as("written directly only from the initial namespace")
                .isInstanceOf(RmemMax.inInitialNetworkNamespace() ? RmemMax.ProcFile.class
                        : RmemMax.InitNamespaceFile.class);
    }
}
