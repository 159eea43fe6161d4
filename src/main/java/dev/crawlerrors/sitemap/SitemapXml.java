package dev.crawlerrors.sitemap;

import java.io.InputStream;
import javax.xml.XMLConstants;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Reads a sitemap's XML (sitemaps.org): the {@code <loc>} of each {@code <url>} of a
 * {@code <urlset>}, or of each {@code <sitemap>} of a {@code <sitemapindex>}, namespaces aside.
 * The JDK's StAX parser with DTDs and external entities off; a document that declares a DTD is
 * refused outright (a sitemap needs none, and entity expansion is how billion laughs and XXE work),
 * elements nest at most {@link #MAX_DEPTH} deep and a {@code <loc>} longer than
 * {@link SitemapLimits#MAX_URL_CHARS} is skipped.
 */
final class SitemapXml {

    /** What the root element says the document is. */
    enum Kind { URLSET, INDEX }

    /** Deeper than any sitemap nests (urlset, url, loc: 3; extensions add one or two). */
    static final int MAX_DEPTH = 16;

    private static final XMLInputFactory FACTORY = factory();

    private SitemapXml() {
    }

    private static XMLInputFactory factory() {
        XMLInputFactory factory = XMLInputFactory.newDefaultFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        factory.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, false);
        factory.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        factory.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        return factory;
    }

    /** Where a document's locations go: its kind first, then each {@code <loc>}, trimmed, as it comes. */
    interface Locations {
        void root(Kind kind);

        void loc(String loc);

        /** A {@code <loc>} longer than any URL read, skipped. */
        void tooLong();
    }

    /**
     * Reads the document into {@code locs}.
     *
     * @throws SitemapRefusedException a DTD, a root that is no sitemap's, nesting too deep
     * @throws XMLStreamException XML that is not well formed, or a stream that failed beneath the parser (its cause says why)
     */
    static void read(InputStream in, String name, Locations locs) throws SitemapRefusedException, XMLStreamException {
        XMLStreamReader xml = FACTORY.createXMLStreamReader(in);
        try {
            Kind kind = null;
            int depth = 0;
            boolean inLoc = false;
            StringBuilder loc = new StringBuilder();
            boolean overlong = false;
            while (xml.hasNext()) {
                int event = xml.next();
                switch (event) {
                    case XMLStreamConstants.DTD -> throw new SitemapRefusedException("sitemap " + name
                            + " was refused: it declares a DTD, which a sitemap has no need of (DTDs and entities are not read)");
                    case XMLStreamConstants.ENTITY_REFERENCE -> throw new SitemapRefusedException("sitemap " + name
                            + " was refused: it uses the entity &" + xml.getLocalName() + "; which no sitemap defines");
                    case XMLStreamConstants.START_ELEMENT -> {
                        depth++;
                        if (depth > MAX_DEPTH) {
                            throw new SitemapRefusedException("sitemap " + name + " was refused: its elements nest deeper than "
                                    + MAX_DEPTH + " (no sitemap nests so deep)");
                        }
                        String local = xml.getLocalName();
                        if (depth == 1) {
                            kind = switch (local) {
                                case "urlset" -> Kind.URLSET;
                                case "sitemapindex" -> Kind.INDEX;
                                default -> throw new SitemapRefusedException("sitemap " + name + " is not a sitemap: its root element is <"
                                        + local + ">, not <urlset> or <sitemapindex>");
                            };
                            locs.root(kind);
                        } else if (depth == 3 && local.equals("loc")) {
                            inLoc = true;
                            loc.setLength(0);
                            overlong = false;
                        }
                    }
                    case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE -> {
                        if (inLoc && !overlong) {
                            if (loc.length() + xml.getTextLength() > SitemapLimits.MAX_URL_CHARS) {
                                overlong = true;
                            } else {
                                loc.append(xml.getTextCharacters(), xml.getTextStart(), xml.getTextLength());
                            }
                        }
                    }
                    case XMLStreamConstants.END_ELEMENT -> {
                        if (inLoc && depth == 3) {
                            inLoc = false;
                            if (overlong) {
                                locs.tooLong();
                            } else {
                                locs.loc(loc.toString().trim());
                            }
                        }
                        depth--;
                    }
                    default -> {
                    }
                }
            }
            if (kind == null) {
                throw new SitemapRefusedException("sitemap " + name + " is not a sitemap: it holds no XML element");
            }
        } finally {
            xml.close();
        }
    }
}
