package dev.crawlerrors.alert;

/** What a webhook is sent: {@code --alert-format}. */
public enum AlertFormat {
    /** Alertmanager's webhook format (version 4), which what takes Alertmanager's webhooks takes. */
    alertmanager,
    /** {@code {"text": "..."}}: a plain-text summary a Slack-compatible incoming webhook shows as it is. */
    slack
}
