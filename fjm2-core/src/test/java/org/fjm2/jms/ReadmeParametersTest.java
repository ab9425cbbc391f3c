package org.fjm2.jms;

import org.fjm2.jms.transport.TransportParameter;
import org.fjm2.jms.transport.inmem.InMemoryTransportFactory;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The README's parameter tables must list every parameter the code knows, with its default. */
class ReadmeParametersTest {

    @Test
    void everyParameterIsDocumentedWithItsDefault() throws Exception {
        String readme = Files.readString(Path.of("README.md"));
        List<TransportParameter> all = new ArrayList<>(JmsParameters.ALL);
        all.addAll(new InMemoryTransportFactory().parameters());
        all.addAll(new org.fjm2.jms.transport.norm.NormTransportFactory().parameters());
        for (TransportParameter p : all) {
            String shownDefault = p.defaultValue().isEmpty() ? "(none)" : p.defaultValue();
            assertThat(readme).as("README row for %s", p.name())
                    .containsPattern("\\| `" + p.name() + "` \\| `?" + java.util.regex.Pattern.quote(shownDefault) + "`? \\|");
        }
    }
}
