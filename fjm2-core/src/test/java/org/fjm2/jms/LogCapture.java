package org.fjm2.jms;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.slf4j.LoggerFactory;

import java.util.List;

/** Collects the WARN and ERROR lines of the JMS layer's loggers while open (logback's in-memory appender). */
final class LogCapture implements AutoCloseable {

    private final Logger logger = (Logger) LoggerFactory.getLogger("org.fjm2.jms");
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    LogCapture() {
        appender.start();
        logger.addAppender(appender);
    }

    /** The formatted WARN/ERROR lines so far that contain {@code text}. */
    List<String> lines(String text) {
        synchronized (appender) {
            return appender.list.stream()
                    .filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN))
                    .map(ILoggingEvent::getFormattedMessage)
                    .filter(m -> m.contains(text))
                    .toList();
        }
    }

    /** Whether any line so far carries a stack trace. */
    boolean anyStackTrace() {
        synchronized (appender) {
            return appender.list.stream().anyMatch(e -> e.getThrowableProxy() != null);
        }
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
        appender.stop();
    }
}
