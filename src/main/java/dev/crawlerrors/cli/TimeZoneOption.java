package dev.crawlerrors.cli;

import java.time.DateTimeException;
import java.time.ZoneId;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code --timezone}: the zone the report shows timestamps in. */
final class TimeZoneOption {

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--timezone", paramLabel = "ZONE",
            description = "Time zone the report shows timestamps in, e.g. Europe/Brussels (default: the system zone).")
    String timezone;

    ZoneId zone() {
        if (timezone == null) {
            return ZoneId.systemDefault();
        }
        try {
            return ZoneId.of(timezone);
        } catch (DateTimeException e) {
            throw new ParameterException(spec.commandLine(),
                    "--timezone: '" + timezone + "' is not a time zone; use a region such as Europe/Brussels or an offset such as +02:00");
        }
    }
}
