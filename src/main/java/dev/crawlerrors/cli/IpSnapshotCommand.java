package dev.crawlerrors.cli;

import dev.crawlerrors.crawler.CrawlerCatalog;
import dev.crawlerrors.crawler.verify.IpListSnapshotWriter;
import dev.crawlerrors.crawler.verify.IpRangeSource;
import dev.crawlerrors.text.ShownText;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * {@code crawl-errors ip-snapshot DIR} (hidden): refills the release's dated snapshot of the
 * operators' IP lists in {@code DIR} (the project's {@code src/main/resources/ip-ranges}), run by
 * {@code bin/refresh-ip-snapshot} on a machine that reaches the operators.
 */
final class IpSnapshotCommand implements Callable<Integer> {

    private CommandSpec spec;

    String ipRanges;

    Path directory;

    /** The command, bound to this object; hidden from the help. */
    CommandSpec spec() {
        spec = CommandSpecs.command(this, "ip-snapshot",
                "Refills the release's dated snapshot of every published IP list the built-in catalog names in DIR: each list is "
                        + "downloaded and checked as verification checks it; one that fails keeps the snapshot's previous copy.");
        spec.usageMessage().hidden(true);
        CommandSpecs.exitCodes(spec, "0:every list has a copy in the snapshot", "1:some list has none", "2:bad usage");
        spec.addOption(CommandSpecs.option("--ip-ranges", "URL", String.class, () -> ipRanges, value -> ipRanges = value,
                "A base URL to download the lists from instead of the operators' official addresses.").build());
        spec.addPositional(CommandSpecs.positional("DIR", Path.class, () -> directory, value -> directory = value,
                "The snapshot directory (src/main/resources/ip-ranges in the project).").index("0").arity("1").required(true).build());
        return spec;
    }

    @Override
    public Integer call() throws Exception {
        if (ipRanges != null && !ipRanges.startsWith("http://") && !ipRanges.startsWith("https://")) {
            throw new ParameterException(spec.commandLine(), "--ip-ranges: '" + ipRanges + "' is not an http(s) URL");
        }
        IpRangeSource source = IpRangeSource.parse(ipRanges);
        List<IpListSnapshotWriter.Outcome> outcomes = new IpListSnapshotWriter(source, Clock.systemUTC())
                .refill(CrawlerCatalog.builtIn().lists(), directory);
        outcomes.forEach(outcome -> System.out.println(ShownText.of(outcome.line())));
        long missing = outcomes.stream().filter(o -> !o.fresh() && !o.kept()).count();
        long kept = outcomes.stream().filter(IpListSnapshotWriter.Outcome::kept).count();
        System.out.println("Snapshot in " + ShownText.of(directory.toString()) + ": " + (outcomes.size() - missing - kept) + " lists fresh, "
                + kept + " kept from the previous snapshot, " + missing + " missing.");
        return missing == 0 ? 0 : Main.RUNTIME_FAILURE;
    }
}
