package dev.crawlerrors.crawler.signature;

/** A header field that is not the structured field it should be; the message says where and why, for people. */
public final class MalformedFieldException extends Exception {

    public MalformedFieldException(String message) {
        super(message);
    }
}
