package dev.crawlerrors.crawler;

import java.util.List;

/**
 * A published IP list as the catalog names it.
 *
 * @param name     the file name the operator publishes it under, e.g. {@code common-crawlers.json}
 * @param operator who publishes it
 * @param url      its official address
 * @param aliases  older file names for the same list, tried when {@code name} is missing from a directory
 */
public record IpListSpec(String name, String operator, String url, List<String> aliases) {

    public IpListSpec {
        aliases = aliases == null ? List.of() : List.copyOf(aliases);
    }
}
