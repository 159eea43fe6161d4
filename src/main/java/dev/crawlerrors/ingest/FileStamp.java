package dev.crawlerrors.ingest;

/**
 * A file as the file system describes it, without opening it: which file it is (its device and
 * inode, or whatever identity the platform gives), how long it is and when its content last changed.
 * A file whose stamp is the one it had when it was read to its end holds nothing new: a nightly
 * import over a directory of thousands of logs looks at each one's stamp and opens only those that
 * changed (a renamed file keeps its stamp; a file replaced by another, or written to, does not).
 *
 * @param key           the file's identity ({@code (dev=803,ino=1234)} on Linux); never null
 * @param size          its length in bytes, as stored (compressed or not)
 * @param modifiedNanos its last modification time, in nanoseconds since the epoch
 */
public record FileStamp(String key, long size, long modifiedNanos) {
}
