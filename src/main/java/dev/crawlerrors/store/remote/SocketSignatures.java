package dev.crawlerrors.store.remote;

import dev.crawlerrors.store.SignatureStore;
import dev.crawlerrors.store.StoredDirectory;
import dev.crawlerrors.store.StoredSignature;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * What signature verification keeps, for an import written through a {@code serve}'s socket: each
 * call is a request to that serve, which keeps it in the store it has open. The frames of these
 * requests are written and read here, on both sides.
 */
final class SocketSignatures implements SignatureStore {

    private final StoreSocketClient client;

    SocketSignatures(StoreSocketClient client) {
        this.client = client;
    }

    @Override
    public void keepDirectory(StoredDirectory reading) {
        client.request(Frames.KEEP_DIRECTORY, out -> writeDirectory(out, reading), in -> null);
    }

    @Override
    public List<StoredDirectory> directories() {
        return client.request(Frames.DIRECTORIES, out -> { }, SocketSignatures::readDirectories);
    }

    @Override
    public void keepPending(List<StoredSignature> signatures) {
        client.request(Frames.KEEP_PENDING, out -> writeSignatures(out, signatures), in -> null);
    }

    @Override
    public List<StoredSignature> pending(int max) {
        return client.request(Frames.PENDING, out -> out.writeInt(max), SocketSignatures::readSignatures);
    }

    @Override
    public long pendingCount() {
        return client.request(Frames.PENDING_COUNT, out -> { }, DataInputStream::readLong);
    }

    @Override
    public void settled(Collection<String> ids) {
        client.request(Frames.SETTLED, out -> Frames.writeStrings(out, ids), in -> null);
    }

    static void writeDirectory(DataOutputStream out, StoredDirectory d) throws IOException {
        Frames.writeString(out, d.origin());
        out.writeLong(d.fetchedMillis());
        Frames.writeString(out, d.source());
        Frames.writeString(out, d.json());
        Frames.writeString(out, d.proof());
    }

    static StoredDirectory readDirectory(DataInputStream in) throws IOException {
        return new StoredDirectory(Frames.readString(in), in.readLong(), Frames.readString(in), Frames.readString(in), Frames.readString(in));
    }

    static void writeDirectories(DataOutputStream out, List<StoredDirectory> readings) throws IOException {
        out.writeInt(readings.size());
        for (StoredDirectory reading : readings) {
            writeDirectory(out, reading);
        }
    }

    static List<StoredDirectory> readDirectories(DataInputStream in) throws IOException {
        int n = count(in);
        List<StoredDirectory> readings = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            readings.add(readDirectory(in));
        }
        return readings;
    }

    static void writeSignatures(DataOutputStream out, List<StoredSignature> signatures) throws IOException {
        out.writeInt(signatures.size());
        for (StoredSignature s : signatures) {
            for (String field : new String[] {s.id(), s.ip(), s.claimCrawler(), s.origin(), s.keyid(), s.alg(), s.base(), s.signature()}) {
                Frames.writeString(out, field);
            }
            out.writeLong(s.requestMillis());
            Frames.writeString(out, s.request());
        }
    }

    static List<StoredSignature> readSignatures(DataInputStream in) throws IOException {
        int n = count(in);
        List<StoredSignature> signatures = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            signatures.add(new StoredSignature(Frames.readString(in), Frames.readString(in), Frames.readString(in), Frames.readString(in),
                    Frames.readString(in), Frames.readString(in), Frames.readString(in), Frames.readString(in), in.readLong(), Frames.readString(in)));
        }
        return signatures;
    }

    private static int count(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > Frames.MAX_HITS) {
            throw new IOException("a list of " + n + " is not one the store socket sends");
        }
        return n;
    }
}
