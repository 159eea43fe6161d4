package dev.crawlerrors.report;

/** A report request parameter has a value the report cannot use; the message names the parameter and what it accepts. */
public final class BadParameterException extends RuntimeException {

    private final String parameter;

    public BadParameterException(String parameter, String message) {
        super(message);
        this.parameter = parameter;
    }

    public String parameter() {
        return parameter;
    }
}
