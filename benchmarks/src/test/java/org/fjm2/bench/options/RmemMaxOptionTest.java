package org.fjm2.bench.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

class RmemMaxOptionTest {

    @Command(name = "probe")
    static final class Probe implements Runnable {
        @Mixin
        RmemMaxOption rmemMax;

        @Override
        public void run() {
        }
    }

    private static RmemMaxOption parse(String... args) {
        Probe probe = new Probe();
        new CommandLine(probe).parseArgs(args);
        return probe.rmemMax;
    }

    @Test
    void capsAreSizesInTheQuantityGrammar() {
        RmemMaxOption option = parse("--rmem-max", "208k,4m,8MiB");
        assertThat(option.isSet()).isTrue();
        assertThat(option.caps()).containsExactly(212_992, 4_194_304, 8_388_608);
        assertThat(RmemMaxOption.problem(option.caps())).isEmpty();
        assertThat(parse("--rmem-max", "212992").caps()).containsExactly(212_992);
    }

    @Test
    void withoutTheOptionThereIsOneRunUnderTheCurrentCap() {
        RmemMaxOption option = parse();
        assertThat(option.isSet()).isFalse();
        assertThat(option.caps()).isEmpty();
    }

    @Test
    void tooSmallRepeatedAndMisspeltCapsAreRefused() {
        assertThat(RmemMaxOption.problem(parse("--rmem-max", "4k").caps())).hasValueSatisfying(
                p -> assertThat(p).contains("below 65536"));
        assertThat(RmemMaxOption.problem(parse("--rmem-max", "4m,4096k").caps())).hasValueSatisfying(
                p -> assertThat(p).contains("twice"));
        assertThatThrownBy(() -> parse("--rmem-max", "4mbit")).isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageContaining("4mbit");
        assertThatThrownBy(() -> parse("--rmem-max", "3g")).isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageContaining("larger than 2 GiB");
    }

    @Test
    void badCapsEndTheCommandBeforeAnythingIsChanged() {
        Probe probe = new Probe();
        CommandLine cli = new CommandLine(probe);
        cli.parseArgs("--rmem-max", "16k");
        assertThatThrownBy(() -> probe.rmemMax.validate(cli)).isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageContaining("--rmem-max");
    }
}
