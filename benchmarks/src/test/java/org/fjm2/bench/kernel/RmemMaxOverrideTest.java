package org.fjm2.bench.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

/** The set-and-restore logic of --rmem-max against a fake sysctl: the original value comes back whatever happens. */
class RmemMaxOverrideTest {

    static final long ORIGINAL = 4_194_304;

    private final FakeSysctl sysctl = new FakeSysctl(ORIGINAL);
    private final FakeHooks hooks = new FakeHooks();
    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    private final PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);

    @Test
    void eachCapIsInEffectDuringItsRunAndTheOriginalComesBackAfterTheLast() throws Exception {
        List<String> seen = new ArrayList<>();
        RmemMaxOverride.forEach(sysctl, hooks, new int[] {212_992, 8_388_608}, log,
                cap -> seen.add(cap.getAsLong() + "@" + sysctl.value));

        assertThat(seen).containsExactly("212992@212992", "8388608@8388608");
        assertThat(sysctl.writes).containsExactly(212_992L, 8_388_608L, ORIGINAL);
        assertThat(sysctl.value).isEqualTo(ORIGINAL);
        assertThat(hooks.added).hasSize(1);
        assertThat(hooks.removed).containsExactlyElementsOf(hooks.added);
    }

    @Test
    void aRunThatThrowsStillPutsTheOriginalBackAndStopsTheLoop() {
        List<Long> run = new ArrayList<>();
        assertThatThrownBy(() -> RmemMaxOverride.forEach(sysctl, hooks, new int[] {212_992, 4_194_304, 8_388_608}, log,
                cap -> {
                    run.add(cap.getAsLong());
                    if (run.size() == 2) {
                        throw new IllegalStateException("subscriber JVM died");
                    }
                })).isInstanceOf(IllegalStateException.class).hasMessage("subscriber JVM died");

        assertThat(run).containsExactly(212_992L, 4_194_304L);
        assertThat(sysctl.writes).containsExactly(212_992L, 4_194_304L, ORIGINAL);
        assertThat(sysctl.value).isEqualTo(ORIGINAL);
        assertThat(hooks.removed).containsExactlyElementsOf(hooks.added);
    }

    @Test
    void aFailedWriteOfACapStillPutsTheOriginalBack() {
        sysctl.refuse = 8_388_608L;
        assertThatThrownBy(() -> RmemMaxOverride.forEach(sysctl, hooks, new int[] {212_992, 8_388_608}, log,
                cap -> { })).isInstanceOf(IOException.class);
        assertThat(sysctl.value).isEqualTo(ORIGINAL);
        assertThat(hooks.removed).containsExactlyElementsOf(hooks.added);
    }

    @Test
    void theShutdownHookPutsTheOriginalBackWhenTheRunIsInterrupted() throws Exception {
        RmemMaxOverride override = RmemMaxOverride.begin(sysctl, hooks, log);
        override.set(212_992);
        assertThat(hooks.added).containsExactly(override.hook());

        // what the JVM does on Ctrl-C or SIGTERM: the run's finally never comes, the hook runs
        override.hook().run();

        assertThat(sysctl.value).isEqualTo(ORIGINAL);
        assertThat(override.restored()).isTrue();
        assertThatThrownBy(() -> override.set(8_388_608)).isInstanceOf(IllegalStateException.class);
        override.close();
        assertThat(sysctl.writes).as("put back once").containsExactly(212_992L, ORIGINAL);
    }

    @Test
    void theOriginalComesBackEvenWhenSomethingElseChangedTheCapMeanwhileAndTheRunSaysSo() throws Exception {
        try (RmemMaxOverride override = RmemMaxOverride.begin(sysctl, hooks, log)) {
            override.set(8_388_608);
            sysctl.value = 212_992; // another process
        }
        assertThat(sysctl.value).isEqualTo(ORIGINAL);
        assertThat(logBytes.toString(StandardCharsets.UTF_8)).contains("something else changed it");
    }

    @Test
    void nothingIsWrittenWhenTheOriginalCannotBeRead() {
        sysctl.unreadable = true;
        assertThatThrownBy(() -> RmemMaxOverride.forEach(sysctl, hooks, new int[] {212_992}, log, cap -> { }))
                .isInstanceOf(IOException.class);
        assertThat(sysctl.writes).isEmpty();
        assertThat(hooks.added).isEmpty();
    }

    @Test
    void theRunSeesTheCapAsAnOptionalLong() throws Exception {
        List<OptionalLong> caps = new ArrayList<>();
        RmemMaxOverride.forEach(sysctl, hooks, new int[] {65_536}, log, caps::add);
        assertThat(caps).containsExactly(OptionalLong.of(65_536));
    }

    /** A sysctl in memory, recording writes; can refuse one value or every read. */
    static final class FakeSysctl implements Sysctl {
        long value;
        final List<Long> writes = new ArrayList<>();
        Long refuse;
        boolean unreadable;

        FakeSysctl(long value) {
            this.value = value;
        }

        @Override
        public String name() {
            return "net.core.rmem_max";
        }

        @Override
        public long read() throws IOException {
            if (unreadable) {
                throw new IOException("permission denied");
            }
            return value;
        }

        @Override
        public void write(long v) throws IOException {
            if (refuse != null && refuse == v) {
                throw new IOException("write refused");
            }
            writes.add(v);
            value = v;
        }
    }

    static final class FakeHooks implements RmemMaxOverride.ShutdownHooks {
        final List<Thread> added = new ArrayList<>();
        final List<Thread> removed = new ArrayList<>();

        @Override
        public void add(Thread hook) {
            added.add(hook);
        }

        @Override
        public void remove(Thread hook) {
            removed.add(hook);
        }
    }
}
