package dev.crawlerrors.web;

import dev.crawlerrors.text.Threads;
import io.javalin.Javalin;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The HTTP server's classes (Javalin's, Jetty's, Jackson's, the metrics registry's) loaded and
 * initialised on a thread of their own while {@code serve} opens its store, instead of after it:
 * they are most of what serve does between the store's opening and its first page.
 */
public final class ServerClasses {

    private ServerClasses() {
    }

    /** Loads them in the background: nothing is started and nothing listens; what fails here is said when the server starts. */
    public static void loadInBackground() {
        Threads.startDaemon("web-classes", () -> {
            try {
                Class.forName(ReportServer.class.getName(), true, ServerClasses.class.getClassLoader());
                new Server(new QueuedThreadPool());
                new ServletContextHandler();
                Javalin.create(config -> config.startup.showJavalinBanner = false);
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT).close();
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                // the server's start loads them again and says what is wrong
            }
        });
    }
}
