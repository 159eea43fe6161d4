package dev.crawlerrors.ingest.source;

import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;

/**
 * A small gzip file's members decompressed in memory with this thread's {@link Inflater}: a
 * {@link GZIPInputStream} per file made an inflater (zlib's state, its window, a cleaner), a
 * buffer and three streams for each of 50,000 logs of 1 KB. Only whole, well-formed members
 * that fill the file end to end are read this way; anything else (a file cut short, a bad
 * checksum, bytes after the last member) is read as a stream, which says what is wrong as before.
 *
 * @param bytes  the content, null when it holds more than {@link LogSource#SMALL_CONTENT_BYTES}
 * @param length how much of {@code bytes} it fills
 */
record GzipMembers(byte[] bytes, int length) {

    private static final ThreadLocal<Inflater> INFLATERS = ThreadLocal.withInitial(() -> new Inflater(true));
    private static final int FHCRC = 2;
    private static final int FEXTRA = 4;
    private static final int FNAME = 8;
    private static final int FCOMMENT = 16;

    /** The content of {@code raw}, or null when it is not whole and well formed (to be read as a stream). */
    static GzipMembers inflate(byte[] raw) {
        long said = trailerSize(raw);
        byte[] out = new byte[(int) Math.min(LogSource.SMALL_CONTENT_BYTES, said > 0 ? said + 1 : Math.max(4096, raw.length * 4L))];
        int length = 0;
        int at = 0;
        Inflater inflater = INFLATERS.get();
        CRC32 crc = new CRC32();
        try {
            while (at < raw.length) {
                int data = header(raw, at);
                if (data < 0) {
                    return null;
                }
                inflater.reset();
                inflater.setInput(raw, data, raw.length - data);
                int start = length;
                while (!inflater.finished()) {
                    if (length == out.length) {
                        if (out.length >= LogSource.SMALL_CONTENT_BYTES) {
                            return new GzipMembers(null, 0);
                        }
                        out = Arrays.copyOf(out, Math.min(LogSource.SMALL_CONTENT_BYTES, out.length * 2));
                    }
                    int n = inflater.inflate(out, length, out.length - length);
                    if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                        return null; // cut short, or not what gzip writes
                    }
                    length += n;
                }
                int trailer = raw.length - inflater.getRemaining();
                if (trailer + 8 > raw.length) {
                    return null;
                }
                crc.reset();
                crc.update(out, start, length - start);
                if ((int) crc.getValue() != littleEndianInt(raw, trailer) || length - start != littleEndianInt(raw, trailer + 4)) {
                    return null;
                }
                at = trailer + 8;
            }
        } catch (DataFormatException e) {
            return null;
        } finally {
            inflater.reset();
        }
        return new GzipMembers(out, length);
    }

    /** The decompressed size a gzip file's trailer gives (modulo 2^32, for the last member), or -1 when it has none. */
    static long trailerSize(byte[] raw) {
        if (raw.length < 18) {
            return -1;
        }
        int n = raw.length;
        return (raw[n - 4] & 0xffL) | (raw[n - 3] & 0xffL) << 8 | (raw[n - 2] & 0xffL) << 16 | (raw[n - 1] & 0xffL) << 24;
    }

    /** Where the deflated data of the member at {@code at} begins, or -1 when its header is not one read here. */
    private static int header(byte[] raw, int at) {
        if (raw.length - at < 18 || (raw[at] & 0xff) != 0x1f || (raw[at + 1] & 0xff) != 0x8b || raw[at + 2] != 8) {
            return -1;
        }
        int flags = raw[at + 3] & 0xff;
        if ((flags & 0xe0) != 0) {
            return -1;
        }
        int p = at + 10;
        if ((flags & FEXTRA) != 0) {
            if (p + 2 > raw.length) {
                return -1;
            }
            p += 2 + ((raw[p] & 0xff) | (raw[p + 1] & 0xff) << 8);
        }
        if ((flags & FNAME) != 0) {
            p = afterZero(raw, p);
        }
        if ((flags & FCOMMENT) != 0) {
            p = afterZero(raw, p);
        }
        if ((flags & FHCRC) != 0) {
            p += 2;
        }
        return p < 0 || p > raw.length ? -1 : p;
    }

    private static int afterZero(byte[] raw, int p) {
        if (p < 0) {
            return -1;
        }
        for (int i = p; i < raw.length; i++) {
            if (raw[i] == 0) {
                return i + 1;
            }
        }
        return -1;
    }

    private static int littleEndianInt(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16 | (b[at + 3] & 0xff) << 24;
    }
}
