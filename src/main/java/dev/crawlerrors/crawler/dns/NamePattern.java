package dev.crawlerrors.crawler.dns;

import java.util.Locale;
import org.xbill.DNS.Name;
import org.xbill.DNS.TextParseException;

/**
 * A host name an operator documents for its crawlers' PTR records, as the catalog writes it:
 * <ul>
 *   <li>{@code crawl-*.googlebot.com}: one label that matches the glob ({@code *} stands for any
 *       characters but a dot), directly under the domain: {@code crawl-66-249-66-1.googlebot.com}
 *       matches, {@code x.crawl-1.googlebot.com} and {@code crawl.googlebot.com} do not;
 *   <li>{@code *.search.msn.com}: any name strictly under the domain, however deep;
 *   <li>{@code search.msn.com}: the domain itself or any name under it.
 * </ul>
 * Comparison ignores case, as DNS does, and is done at label boundaries: {@code evilgooglebot.com}
 * is not under {@code googlebot.com}.
 */
record NamePattern(String text, Name domain, String[] glob, boolean strictlyUnder) {

    /**
     * @throws IllegalArgumentException naming the pattern when it is not one of the three forms
     */
    static NamePattern parse(String text) {
        String domainText = text;
        String[] glob = null;
        boolean strictlyUnder = false;
        int dot = text.indexOf('.');
        if (text.startsWith("*.")) {
            domainText = text.substring(2);
            strictlyUnder = true;
        } else if (dot > 0 && text.substring(0, dot).contains("*")) {
            domainText = text.substring(dot + 1);
            glob = text.substring(0, dot).toLowerCase(Locale.ROOT).split("\\*", -1);
        }
        if (domainText.isEmpty() || domainText.contains("*")) {
            throw new IllegalArgumentException("'" + text + "' is not a DNS name pattern; write crawl-*.googlebot.com, "
                    + "*.search.msn.com or search.msn.com");
        }
        try {
            return new NamePattern(text, Name.fromString(domainText, Name.root), glob, strictlyUnder);
        } catch (TextParseException e) {
            throw new IllegalArgumentException("'" + text + "' is not a DNS name pattern: " + e.getMessage());
        }
    }

    boolean matches(Name name) {
        if (!name.subdomain(domain)) {
            return false;
        }
        if (glob != null) {
            return name.labels() == domain.labels() + 1 && globMatches(name.getLabelString(0).toLowerCase(Locale.ROOT));
        }
        return !strictlyUnder || name.labels() > domain.labels();
    }

    /** Whether {@code label} is the glob's parts in order, the first at its start and the last at its end. */
    private boolean globMatches(String label) {
        if (!label.startsWith(glob[0])) {
            return false;
        }
        int at = glob[0].length();
        for (int i = 1; i < glob.length - 1; i++) {
            int found = label.indexOf(glob[i], at);
            if (found < 0) {
                return false;
            }
            at = found + glob[i].length();
        }
        String last = glob[glob.length - 1];
        return label.length() - last.length() >= at && label.endsWith(last);
    }
}
