package dev.crawlerrors;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;

/**
 * Marks a test class that starts crawl-errors (or another program: the launcher, Prometheus, keytool) in a process of its own: an integration test, which
 * {@code mvn verify} (and {@code ./run-tests}) runs under failsafe and {@code mvn test} leaves out
 * (the pom's {@code integration.groups}). Its tests may take longer than the default timeout of
 * src/test/resources/junit-platform.properties: a JVM's start under load.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("process")
@Timeout(value = 10, unit = TimeUnit.MINUTES)
public @interface ProcessTest {
}
