package dev.crawlerrors.text;

/**
 * What a failure says, for a message to the user: the one place that turns an exception into
 * words. Some exceptions carry no message (a bare {@code NullPointerException}); their type is
 * then all there is to say.
 */
public final class Failures {

    private Failures() {
    }

    /** {@code e}'s message, or its type and nothing else when it has none. */
    public static String message(Throwable e) {
        return e.getMessage() == null ? e.toString() : e.getMessage();
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
