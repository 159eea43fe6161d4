package dev.crawlerrors.web;

import java.util.List;
import java.util.Optional;

/**
 * What the report says of the evidence its verdicts rest on, asked at every page view: a line per
 * published IP list read or not and the resolver's health (under the table), and, when no verdict
 * can be proven at all, one sentence saying why and what to do (above it).
 */
@FunctionalInterface
public interface VerdictEvidence {

    /** Nothing to say: a report served without a verifier. */
    VerdictEvidence NONE = List::of;

    /** One line per published IP list read or not, and the DNS resolver's health. */
    List<String> sources();

    /** The sentence for the first screen when no verdict can be proven; empty otherwise. */
    default Optional<String> nothingProvable() {
        return Optional.empty();
    }
}
