package dev.crawlerrors.report;

import dev.crawlerrors.store.StoredHit;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A page of hits packed into one byte array, for {@link KeptPageRows}: numbers as variable-length
 * deltas, each text once per page and then by its place (a page's crawler, agent, method and
 * verdict repeat on every row). A page of 100 rows takes some 6 KB where its records and their
 * strings take ten times that, so the pages of a whole store of a million hits fit in memory.
 * Unpacking gives records equal to those packed, to the bit (a duration of -0.0 stays one).
 */
final class PackedHits {

    private static final int NULL_DURATION = 0;
    private static final int WHOLE_DURATION = 1;
    private static final int RAW_DURATION = 2;
    /** Whole durations below this are written as whole numbers (a double holds every one exactly). */
    private static final double WHOLE_BELOW = 1L << 53;

    private PackedHits() {
    }

    static byte[] pack(List<StoredHit> hits) {
        Writer out = new Writer(64 * hits.size() + 16);
        out.varint(hits.size());
        Map<String, Integer> seen = new HashMap<>();
        long id = 0;
        long millis = 0;
        for (StoredHit hit : hits) {
            out.signed(hit.id() - id);
            out.signed(hit.epochMillis() - millis);
            id = hit.id();
            millis = hit.epochMillis();
            out.signed(hit.offsetMinutes());
            out.signed(hit.status());
            duration(out, hit.durationMs());
            for (String text : new String[] {hit.ip(), hit.method(), hit.url(), hit.crawler(), hit.botType(), hit.verification(),
                    hit.reason(), hit.userAgent(), hit.host()}) {
                text(out, text, seen);
            }
        }
        return out.bytes();
    }

    static List<StoredHit> unpack(byte[] packed) {
        Reader in = new Reader(packed);
        int n = (int) in.varint();
        List<StoredHit> hits = new ArrayList<>(n);
        List<String> seen = new ArrayList<>();
        long id = 0;
        long millis = 0;
        for (int i = 0; i < n; i++) {
            id += in.signed();
            millis += in.signed();
            int offset = (int) in.signed();
            int status = (int) in.signed();
            Double duration = duration(in);
            hits.add(new StoredHit(id, millis, offset, text(in, seen), text(in, seen), text(in, seen), status, duration,
                    text(in, seen), text(in, seen), text(in, seen), text(in, seen), text(in, seen), text(in, seen)));
        }
        return hits;
    }

    private static void duration(Writer out, Double duration) {
        if (duration == null) {
            out.varint(NULL_DURATION);
            return;
        }
        double d = duration;
        if (d >= 0 && d < WHOLE_BELOW && Double.doubleToRawLongBits(d) == Double.doubleToRawLongBits((double) (long) d)) {
            out.varint(WHOLE_DURATION);
            out.varint((long) d);
        } else {
            out.varint(RAW_DURATION);
            out.fixed(Double.doubleToRawLongBits(d));
        }
    }

    private static Double duration(Reader in) {
        int tag = (int) in.varint();
        return switch (tag) {
            case NULL_DURATION -> null;
            case WHOLE_DURATION -> (double) in.varint();
            default -> Double.longBitsToDouble(in.fixed());
        };
    }

    /** 0 for null; the place (from 1) of a text written before; else the next place, then the text's chars. */
    private static void text(Writer out, String text, Map<String, Integer> seen) {
        if (text == null) {
            out.varint(0);
            return;
        }
        Integer place = seen.get(text);
        if (place != null) {
            out.varint(place);
            return;
        }
        seen.put(text, seen.size() + 1);
        out.varint(seen.size());
        boolean latin1 = latin1(text);
        out.varint(2L * text.length() + (latin1 ? 0 : 1));
        if (latin1) {
            out.latin1(text);
        } else {
            out.utf16(text);
        }
    }

    private static boolean latin1(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) >= 256) {
                return false;
            }
        }
        return true;
    }

    private static String text(Reader in, List<String> seen) {
        int place = (int) in.varint();
        if (place == 0) {
            return null;
        }
        if (place <= seen.size()) {
            return seen.get(place - 1);
        }
        long header = in.varint();
        String text = (header & 1) == 0 ? in.latin1((int) (header >>> 1)) : in.utf16((int) (header >>> 1));
        seen.add(text);
        return text;
    }

    private static final class Writer {
        private byte[] bytes;
        private int size;

        Writer(int capacity) {
            bytes = new byte[capacity];
        }

        private void room(int more) {
            if (size + more > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
            }
        }

        void varint(long value) {
            room(10);
            while ((value & ~0x7FL) != 0) {
                bytes[size++] = (byte) ((value & 0x7F) | 0x80);
                value >>>= 7;
            }
            bytes[size++] = (byte) value;
        }

        void signed(long value) {
            varint((value << 1) ^ (value >> 63));
        }

        void fixed(long value) {
            room(8);
            for (int i = 0; i < 8; i++) {
                bytes[size++] = (byte) (value >>> (8 * i));
            }
        }

        void latin1(String text) {
            room(text.length());
            for (int i = 0; i < text.length(); i++) {
                bytes[size++] = (byte) text.charAt(i); // every char is below 256: exactly its low byte
            }
        }

        void utf16(String text) {
            room(2 * text.length());
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                bytes[size++] = (byte) c;
                bytes[size++] = (byte) (c >>> 8);
            }
        }

        byte[] bytes() {
            return Arrays.copyOf(bytes, size);
        }
    }

    private static final class Reader {
        private final byte[] bytes;
        private int at;

        Reader(byte[] bytes) {
            this.bytes = bytes;
        }

        long varint() {
            long value = 0;
            for (int shift = 0;; shift += 7) {
                byte b = bytes[at++];
                value |= (long) (b & 0x7F) << shift;
                if (b >= 0) {
                    return value;
                }
            }
        }

        long signed() {
            long raw = varint();
            return (raw >>> 1) ^ -(raw & 1);
        }

        long fixed() {
            long value = 0;
            for (int i = 0; i < 8; i++) {
                value |= (bytes[at++] & 0xFFL) << (8 * i);
            }
            return value;
        }

        String latin1(int length) {
            String text = new String(bytes, at, length, StandardCharsets.ISO_8859_1);
            at += length;
            return text;
        }

        String utf16(int length) {
            char[] chars = new char[length];
            for (int i = 0; i < length; i++) {
                chars[i] = (char) ((bytes[at] & 0xFF) | (bytes[at + 1] & 0xFF) << 8);
                at += 2;
            }
            return new String(chars);
        }
    }
}
