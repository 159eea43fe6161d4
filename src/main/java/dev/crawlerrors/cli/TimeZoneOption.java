package dev.crawlerrors.cli;

import java.time.DateTimeException;
import java.time.ZoneId;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** {@code --timezone}: the zone the report shows timestamps in. */
final class TimeZoneOption {

    private CommandSpec spec;

    String timezone;

    /** Adds {@code --timezone} to {@code command}. */
    TimeZoneOption addTo(CommandSpec command) {
        spec = command;
        command.addOption(CommandSpecs.option("--timezone", "ZONE", String.class, () -> timezone, value -> timezone = value,
                "Time zone the report shows timestamps in, e.g. Europe/Brussels (default: the system zone).").build());
        return this;
    }

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
