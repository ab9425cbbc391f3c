package org.fjm2.norm.fuzz;

import java.util.ArrayList;
import java.util.List;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.AppenderBase;
import org.slf4j.LoggerFactory;

/**
 * Catches what an event loop swallows: the session logs an exception of a pass at ERROR and goes on, so a fuzz
 * target watches the log of FJM2 for errors during an input and fails on them as if they had escaped. Also quiets
 * FJM2's INFO logging (a line per session opened), which would otherwise flood a fuzzing run.
 */
public final class ErrorLogWatch extends AppenderBase<ILoggingEvent> {

    private static final String ROOT = "org.fjm2";

    private final List<String> errors = new ArrayList<>();

    /** Attaches a watch to FJM2's loggers and lowers their level to WARN. */
    public static ErrorLogWatch install() {
        Logger logger = (Logger) LoggerFactory.getLogger(ROOT);
        logger.setLevel(Level.WARN);
        ErrorLogWatch watch = new ErrorLogWatch();
        watch.setContext(logger.getLoggerContext());
        watch.setName("fuzz-error-watch");
        watch.start();
        logger.addAppender(watch);
        return watch;
    }

    public void uninstall() {
        Logger logger = (Logger) LoggerFactory.getLogger(ROOT);
        logger.detachAppender(this);
        logger.setLevel(null);
        stop();
    }

    @Override
    protected synchronized void append(ILoggingEvent event) {
        if (event.getLevel().isGreaterOrEqual(Level.ERROR)) {
            IThrowableProxy thrown = event.getThrowableProxy();
            errors.add(event.getFormattedMessage()
                    + (thrown == null ? "" : ": " + thrown.getClassName() + ": " + thrown.getMessage()
                    + stackTop(thrown)));
        }
    }

    private static String stackTop(IThrowableProxy thrown) {
        StringBuilder sb = new StringBuilder();
        var frames = thrown.getStackTraceElementProxyArray();
        for (int i = 0; i < Math.min(8, frames.length); i++) {
            sb.append("\n\tat ").append(frames[i].getStackTraceElement());
        }
        return sb.toString();
    }

    /** Forgets what was logged so far (before an input). */
    public synchronized void clear() {
        errors.clear();
    }

    /** Fails when an error was logged since {@link #clear()}. */
    public synchronized void assertNoErrors(String inputDescription) {
        if (!errors.isEmpty()) {
            throw new AssertionError("an event loop swallowed an error on " + inputDescription + ":\n"
                    + String.join("\n", errors));
        }
    }
}
