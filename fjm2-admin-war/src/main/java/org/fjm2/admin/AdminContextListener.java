package org.fjm2.admin;

import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Collections;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts FJM2-Admin with the web application and stops it with it. A configuration the application cannot run
 * with (no token, a token file others may read, a database that will not open) fails the deployment with a
 * one-line reason in the log, instead of serving an open or broken registry.
 */
public final class AdminContextListener implements ServletContextListener {

    private static final Logger LOG = LoggerFactory.getLogger(AdminContextListener.class);

    @Override
    public void contextInitialized(ServletContextEvent event) {
        ServletContext context = event.getServletContext();
        try {
            AdminSettings settings = AdminSettings.read(context::getInitParameter);
            TokenSet tokens = settings.tokenFile() != null
                    ? TokenSet.readFile(settings.tokenFile())
                    : TokenSet.parse(settings.inlineTokens(), "context parameter " + AdminSettings.TOKENS);
            RegistryAgent registry = new RegistryAgent(new NodeDatabase(RegistryDataSource.choose(settings)),
                    tokens, settings, System::currentTimeMillis);
            context.setAttribute(AdminRuntime.ATTRIBUTE, new AdminRuntime(settings, tokens, registry,
                    AdminRuntime.newJsonMapper(), System.currentTimeMillis(), new Refusals(System::currentTimeMillis)));
            LOG.info("FJM2-Admin started: {}, expiry {}, advertisement every {}, status page {}{}", tokens,
                    shortForm(settings.expiry()), shortForm(settings.advertiseInterval()),
                    settings.statusPage().name().toLowerCase(java.util.Locale.ROOT),
                    settings.allowLoopback() ? ", loopback addresses allowed" : "");
        } catch (IllegalArgumentException e) {
            LOG.error("FJM2-Admin cannot start: {}", e.getMessage());
            throw new IllegalStateException("FJM2-Admin cannot start: " + e.getMessage(), e);
        } catch (Exception e) {
            LOG.error("FJM2-Admin cannot start: {}", e.toString(), e);
            throw new IllegalStateException("FJM2-Admin cannot start: " + e, e);
        }
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        ServletContext context = event.getServletContext();
        Object runtime = context.getAttribute(AdminRuntime.ATTRIBUTE);
        if (runtime instanceof AdminRuntime r) {
            context.removeAttribute(AdminRuntime.ATTRIBUTE);
            r.registry().close();
            LOG.info("FJM2-Admin stopped");
        }
        deregisterOwnDrivers();
    }

    /** "1m30s" rather than "PT1M30S". */
    static String shortForm(java.time.Duration d) {
        return d.toString().substring(2).toLowerCase(java.util.Locale.ROOT);
    }

    /** JDBC drivers this application's class loader registered would pin it in memory after an undeploy. */
    private static void deregisterOwnDrivers() {
        ClassLoader own = AdminContextListener.class.getClassLoader();
        for (Driver driver : Collections.list(DriverManager.getDrivers())) {
            if (driver.getClass().getClassLoader() == own) {
                try {
                    DriverManager.deregisterDriver(driver);
                } catch (SQLException e) {
                    LOG.debug("could not deregister {}", driver, e);
                }
            }
        }
    }
}
