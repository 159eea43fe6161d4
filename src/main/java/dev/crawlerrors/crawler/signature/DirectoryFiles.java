package dev.crawlerrors.crawler.signature;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;

/**
 * {@code --signature-directories DIR}: key directories read from files instead of the network, one
 * JWK set a file named after its signer's host ({@code chatgpt.com.json}, and
 * {@code 127.0.0.1:8443.json} for another port), for machines that cannot reach the signers, and
 * for tests. The files are the user's word: no proof is asked of them. Each read is a new reading,
 * so a file that changes between imports leaves its history in the store as a fetched one does.
 */
public final class DirectoryFiles implements DirectorySource {

    private final Path directory;
    private final Clock clock;

    public DirectoryFiles(Path directory) {
        this(directory, Clock.systemUTC());
    }

    DirectoryFiles(Path directory, Clock clock) {
        this.directory = directory;
        this.clock = clock;
    }

    @Override
    public KeyDirectory read(SignerOrigin origin) throws UnavailableException {
        Path file = file(origin);
        byte[] json;
        try (InputStream in = Files.newInputStream(file)) {
            json = in.readNBytes(KeyDirectory.MAX_BYTES + 1);
        } catch (NoSuchFileException e) {
            throw new UnavailableException("--signature-directories " + directory + " holds no " + file.getFileName() + " for " + origin);
        } catch (IOException e) {
            throw new UnavailableException(file + " cannot be read: " + e.getMessage());
        }
        try {
            return KeyDirectory.parse(origin.toString(), clock.instant(), file.toString(), json, "");
        } catch (KeyDirectory.RefusedException e) {
            throw new UnavailableException(e.getMessage());
        }
    }

    @Override
    public boolean allows(SignerOrigin origin) {
        return Files.isRegularFile(file(origin));
    }

    @Override
    public String describe() {
        return "the files of --signature-directories " + directory;
    }

    private Path file(SignerOrigin origin) {
        return directory.resolve(origin.authority() + ".json");
    }
}
