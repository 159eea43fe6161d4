package dev.crawlerrors.text;

import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.PortUnreachableException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/**
 * What a failure says, for a message to the user: the one place that turns an exception into
 * words, and never into a Java class name. An exception made from a cause carries the cause's
 * class name in its message, and some carry no message at all; both are said in plain words.
 */
public final class Failures {

    private Failures() {
    }

    private static final String IO_ERROR = "an input or output error";
    private static final String NO_MESSAGE = "an internal error with no message";

    /** A class name at the start of a message, as {@code new Exception(cause)} writes it. */
    private static final Pattern CLASS_PREFIX = Pattern.compile("^(?:[a-z_$][\\w$]*\\.)+[A-Z][\\w$]*(?::\\s*|$)");

    /** {@code e}'s message without class names, or what its kind of failure is when it has none. */
    public static String message(Throwable e) {
        String message = e.getMessage();
        while (message != null && CLASS_PREFIX.matcher(message).find()) {
            message = CLASS_PREFIX.matcher(message).replaceFirst("");
        }
        if (message != null && !message.isBlank()) {
            return message;
        }
        String kind = kind(e);
        Throwable cause = e.getCause();
        if (kind.equals(IO_ERROR) || kind.equals(NO_MESSAGE)) {
            if (cause != null && cause != e) {
                return message(cause);
            }
        }
        return kind;
    }

    /** What a failure with no message is, in words. */
    private static String kind(Throwable e) {
        return switch (e) {
            case SocketTimeoutException t -> "timed out";
            case ConnectException t -> "connection refused";
            case PortUnreachableException t -> "nothing listens at that port";
            case UnknownHostException t -> "unknown host";
            case InterruptedException t -> "interrupted";
            case EOFException t -> "the input ended early";
            case IOException t -> IO_ERROR;
            case OutOfMemoryError t -> "out of memory";
            case StackOverflowError t -> "too deeply nested";
            case NumberFormatException t -> "not a number";
            default -> NO_MESSAGE;
        };
    }

    /** The message of the innermost cause: a server that cannot bind wraps the operating system's reason. */
    public static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return message(t);
    }

    /** The first line of {@code e}'s message: engines add plans and stack traces below it. */
    public static String firstLine(Throwable e) {
        String message = message(e);
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
