package org.fjm2.bench.aeron;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import io.aeron.Aeron;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.status.SystemCounterDescriptor;
import org.agrona.CloseHelper;

/**
 * One embedded Aeron media driver ({@link AeronBaseline#driverContext}) with its client, in a directory of its own
 * (several in one JVM: one per subscriber), deleted again on close.
 */
public final class EmbeddedAeron implements AutoCloseable {

    private final MediaDriver driver;
    private final Aeron aeron;

    private EmbeddedAeron(MediaDriver driver, Aeron aeron) {
        this.driver = driver;
        this.aeron = aeron;
    }

    /** Starts a driver named {@code name} (unique in this JVM) and connects a client to it. */
    public static EmbeddedAeron start(String name) {
        Path directory = AeronBaseline.driverDirectoryBase()
                .resolve("fjm2-bench-aeron-" + ProcessHandle.current().pid() + "-" + name);
        MediaDriver driver = MediaDriver.launch(AeronBaseline.driverContext(directory));
        try {
            Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
            return new EmbeddedAeron(driver, aeron);
        } catch (RuntimeException e) {
            driver.close();
            throw e;
        }
    }

    public Aeron aeron() {
        return aeron;
    }

    /** A driver-wide counter (NAKs sent, loss gap fills...). */
    public long counter(SystemCounterDescriptor counter) {
        return driver.context().systemCounters().get(counter).get();
    }

    /** "Name=value ..." of the counters that say where a subscriber's messages went, summed over drivers. */
    public static String summary(List<EmbeddedAeron> drivers, List<SystemCounterDescriptor> counters) {
        return counters.stream().map(c -> camel(c.name()) + "=" + drivers.stream().mapToLong(d -> d.counter(c)).sum())
                .collect(Collectors.joining(" "));
    }

    private static String camel(String constant) {
        StringBuilder sb = new StringBuilder();
        for (String word : constant.toLowerCase(java.util.Locale.ROOT).split("_")) {
            sb.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
        }
        return sb.toString();
    }

    @Override
    public void close() {
        CloseHelper.closeAll(aeron, driver);
    }
}
