package dev.crawlerrors.report;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;

/**
 * A hit's time as the report shows it, to the minute in the report's zone ({@code 2026-10-16T09:41}):
 * the same text as {@code DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm")}, made from the digits
 * of the day and minute, with the zone's offset read once for the span between two of its
 * transitions. Each row of each page is stamped, and the formatter's general path was a visible
 * part of rendering a page (BENCHMARKS.md).
 */
final class MinuteStamps {

    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm");
    private static final long SECONDS_A_DAY = 86_400;
    /** From 0000-01-01 to 9999-12-31 the year has four digits and no sign; outside it the formatter writes it. */
    private static final long FIRST_SECOND = -62_167_219_200L;
    private static final long LAST_SECOND = 253_402_300_799L;

    /** An offset that holds from {@code from} (inclusive) to {@code until} (exclusive), in epoch seconds. */
    private record Span(long from, long until, int offsetSeconds) {
    }

    private final ZoneId zone;
    private final ZoneRules rules;
    private volatile Span span = new Span(0, 0, 0);

    MinuteStamps(ZoneId zone) {
        this.zone = zone;
        this.rules = zone.getRules();
    }

    String of(long epochMillis) {
        long second = Math.floorDiv(epochMillis, 1000);
        Span known = span;
        if (second < known.from() || second >= known.until()) {
            known = spanOf(second);
            span = known;
        }
        long local = second + known.offsetSeconds();
        if (local < FIRST_SECOND || local > LAST_SECOND) {
            return MINUTE.format(Instant.ofEpochMilli(epochMillis).atZone(zone));
        }
        long day = Math.floorDiv(local, SECONDS_A_DAY);
        int secondOfDay = (int) Math.floorMod(local, SECONDS_A_DAY);
        return text(day, secondOfDay / 3600, secondOfDay / 60 % 60);
    }

    private Span spanOf(long second) {
        Instant at = Instant.ofEpochSecond(second);
        ZoneOffset offset = rules.getOffset(at);
        ZoneOffsetTransition previous = rules.previousTransition(at.plusSeconds(1));
        ZoneOffsetTransition next = rules.nextTransition(at);
        long from = previous == null ? Long.MIN_VALUE : previous.toEpochSecond();
        long until = next == null ? Long.MAX_VALUE : next.toEpochSecond();
        return new Span(from, until, offset.getTotalSeconds());
    }

    /** The civil date of a day since 1970-01-01 (the proleptic Gregorian calendar), then the minute. */
    private static String text(long epochDay, int hour, int minute) {
        long z = epochDay + 719_468;
        long era = Math.floorDiv(z, 146_097);
        long dayOfEra = z - era * 146_097;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long shifted = (5 * dayOfYear + 2) / 153;
        int day = (int) (dayOfYear - (153 * shifted + 2) / 5 + 1);
        int month = (int) (shifted < 10 ? shifted + 3 : shifted - 9);
        int year = (int) (yearOfEra + era * 400 + (month <= 2 ? 1 : 0));
        byte[] out = new byte[16];
        digits(out, 0, year / 100);
        digits(out, 2, year % 100);
        out[4] = '-';
        digits(out, 5, month);
        out[7] = '-';
        digits(out, 8, day);
        out[10] = 'T';
        digits(out, 11, hour);
        out[13] = ':';
        digits(out, 14, minute);
        return new String(out, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    private static void digits(byte[] out, int at, int value) {
        out[at] = (byte) ('0' + value / 10);
        out[at + 1] = (byte) ('0' + value % 10);
    }
}
