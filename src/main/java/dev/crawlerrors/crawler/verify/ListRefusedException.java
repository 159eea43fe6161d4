package dev.crawlerrors.crawler.verify;

import java.io.IOException;

/**
 * A list was downloaded (or read) but its content is refused: not JSON, no prefixes, mostly
 * unreadable, a prefix too broad to be a crawler's, or far smaller than the copy in use. Unlike a
 * failed download, this says the source may be wrong, so it is logged as a warning.
 */
public final class ListRefusedException extends IOException {

    public ListRefusedException(String message) {
        super(message);
    }
}
