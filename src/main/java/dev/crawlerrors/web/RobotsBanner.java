package dev.crawlerrors.web;

import dev.crawlerrors.report.RobotsAlert;
import dev.crawlerrors.report.RobotsHealth;
import java.util.List;

/**
 * The banner every page of the report shows while a verified crawler's latest fetch of a host's
 * robots.txt got a 5xx or 429, each alert a link to that crawler's fetches of it. The pages leave a
 * place for it below their navigation ({@link #PLACE}); a page without alerts keeps the place empty.
 */
public record RobotsBanner(List<RobotsAlert> alerts) {

    /** Where a page's banner goes: an empty element below the navigation (jte leaves out HTML comments). */
    static final String PLACE = "<div class=\"robots-alerts-place\"></div>";

    /** The robots.txt URL's own page, of the alert's crawler and host. */
    public String link(RobotsAlert alert) {
        StringBuilder sb = new StringBuilder(ReportLinks.URL_PATH).append("?url=").append(ReportLinks.encode(RobotsHealth.ROBOTS));
        if (alert.host() != null) {
            sb.append("&host=").append(ReportLinks.encode(alert.host()));
        }
        return sb.append("&crawler=").append(ReportLinks.encode(alert.crawler())).toString();
    }

    /** {@code html} with the banner of the alerts now in its place (none when there are none). */
    static String into(String html, RobotsHealth robots) {
        return html.contains(PLACE) ? into(html, robots.alerts(null)) : html;
    }

    /**
     * {@code html} with the banner of the alerts if they are read already, else with none (they are
     * read meanwhile): for a page that is not kept, such as a first page still being counted.
     */
    static String intoIfRead(String html, RobotsHealth robots) {
        return html.contains(PLACE) ? into(html, robots.alertsIfRead().orElse(List.of())) : html;
    }

    private static String into(String html, List<RobotsAlert> now) {
        int place = html.indexOf(PLACE);
        String banner = now.isEmpty() ? "" : ReportRoutes.render("tag/alerts.jte", new RobotsBanner(now));
        return html.substring(0, place) + banner + html.substring(place + PLACE.length());
    }
}
