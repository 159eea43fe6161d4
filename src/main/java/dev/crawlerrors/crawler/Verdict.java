package dev.crawlerrors.crawler;

/** A verification result with the one-line reason that names its evidence. */
public record Verdict(Verification verification, String reason) {
}
