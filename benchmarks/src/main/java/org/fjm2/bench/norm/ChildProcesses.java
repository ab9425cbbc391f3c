package org.fjm2.bench.norm;

import java.util.concurrent.TimeUnit;

/** What every benchmark peer process needs: its output read on daemon threads, and a bounded stop. */
final class ChildProcesses {

    /** Longest wait for a peer to exit after SIGTERM, then after SIGKILL. */
    static final long STOP_WAIT_SECONDS = 5;

    private ChildProcesses() {
    }

    /** SIGTERM, then SIGKILL when it has not exited after {@link #STOP_WAIT_SECONDS}. */
    static void stop(Process process) throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(STOP_WAIT_SECONDS, TimeUnit.SECONDS)) {
                // a peer started through bin/fjm2 may be a launcher with its JVM as a child
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                process.waitFor(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
            }
        }
    }

    /** Runs {@code body} on a daemon thread (a reader of the peer's output must not keep the JVM alive). */
    static void daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
    }
}
