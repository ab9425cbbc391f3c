package org.fjm2.bench.kernel;

import java.io.IOException;

/** One numeric kernel setting under /proc/sys, read and written whole. */
public interface Sysctl {

    /** Its sysctl name, e.g. {@code net.core.rmem_max}. */
    String name();

    long read() throws IOException;

    /** Sets it, and fails unless reading it back gives {@code value}. */
    void write(long value) throws IOException;
}
