package org.fjm2.jms.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * An application without Micrometer on its class path (Micrometer is optional): the provider loads, connects,
 * exchanges a message and reads its statistics; only the metrics binder needs Micrometer.
 */
class WithoutMicrometerTest {

    @Test
    void theProviderWorksWithoutMicrometer() throws Exception {
        try (URLClassLoader loader = new URLClassLoader(classPathWithout("micrometer"),
                ClassLoader.getPlatformClassLoader())) {
            assertThatThrownBy(() -> loader.loadClass("io.micrometer.core.instrument.MeterRegistry"))
                    .isInstanceOf(ClassNotFoundException.class);

            Class<?> scenario = loader.loadClass(WithoutMicrometerScenario.class.getName());
            // The transports are found with ServiceLoader through the context class loader.
            Thread thread = Thread.currentThread();
            ClassLoader previous = thread.getContextClassLoader();
            thread.setContextClassLoader(loader);
            try {
                Object nodeId = scenario.getMethod("roundTrip").invoke(null);
                assertThat((Long) nodeId).isPositive();
            } finally {
                thread.setContextClassLoader(previous);
            }

            assertThatThrownBy(() -> Class.forName(Fjm2ConnectionMetrics.class.getName(), true, loader)
                    .getConstructors()).isInstanceOf(NoClassDefFoundError.class);
        }
    }

    private static URL[] classPathWithout(String fragment) throws Exception {
        List<URL> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!entry.contains(fragment)) {
                urls.add(Path.of(entry).toUri().toURL());
            }
        }
        return urls.toArray(URL[]::new);
    }
}
