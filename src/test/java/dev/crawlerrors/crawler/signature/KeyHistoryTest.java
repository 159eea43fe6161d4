package dev.crawlerrors.crawler.signature;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * What the readings kept of a directory say of a key at a request's time: a key rotated out still
 * proves the requests made while it was published, and a log read weeks later is checked against
 * the readings made since; a key removed before a request does not prove it; a directory that
 * shrinks or disappears removes nothing from the past.
 */
class KeyHistoryTest {

    private static final String ORIGIN = "https://agent.example";
    private static final Instant JAN_1 = Instant.parse("2026-01-01T00:00:00Z");
    private static final Instant JAN_10 = Instant.parse("2026-01-10T00:00:00Z");
    private static final Instant JAN_20 = Instant.parse("2026-01-20T00:00:00Z");

    private final TestSigner old = TestSigner.ed25519(ORIGIN);
    private final TestSigner rotated = TestSigner.ed25519(ORIGIN);
    private final KeyHistory history = new KeyHistory();

    @Test
    void aRotatedKeyStillProvesTheRequestsMadeWhileItWasPublished() throws Exception {
        history.add(reading(JAN_1, old));
        history.add(reading(JAN_10, old, rotated));
        history.add(reading(JAN_20, rotated));

        assertThat(history.key(ORIGIN, old.thumbprint(), Instant.parse("2026-01-05T00:00:00Z")))
                .isInstanceOf(KeyHistory.Published.class);
        assertThat(history.key(ORIGIN, old.thumbprint(), Instant.parse("2026-01-19T23:59:00Z")))
                .isInstanceOf(KeyHistory.Published.class);
        assertThat(history.key(ORIGIN, old.thumbprint(), Instant.parse("2026-01-21T00:00:00Z")))
                .isEqualTo(new KeyHistory.Removed(history.readings(ORIGIN).get(1).keys().get(old.thumbprint()), JAN_10, JAN_20));
    }

    @Test
    void aKeyFirstReadAfterTheRequestProvesIt() throws Exception {
        history.add(reading(JAN_20, rotated));

        KeyHistory.Lookup lookup = history.key(ORIGIN, rotated.thumbprint(), JAN_1);

        assertThat(lookup).isInstanceOf(KeyHistory.Published.class);
        assertThat(((KeyHistory.Published) lookup).firstSeen().fetchedAt()).isEqualTo(JAN_20);
    }

    @Test
    void aKeyAddedByARotationProvesTheRequestsBeforeItWasFirstRead() throws Exception {
        history.add(reading(JAN_1, old));
        history.add(reading(JAN_20, rotated));

        assertThat(history.key(ORIGIN, rotated.thumbprint(), JAN_10)).isInstanceOf(KeyHistory.Published.class);
        assertThat(history.key(ORIGIN, old.thumbprint(), JAN_10)).isInstanceOf(KeyHistory.Published.class);
    }

    @Test
    void aKeyNoReadingHoldsIsUnknownAndANeverReadDirectoryIsSaidToBe() throws Exception {
        assertThat(history.key(ORIGIN, old.thumbprint(), JAN_1)).isEqualTo(new KeyHistory.NeverRead());

        history.add(reading(JAN_10, rotated));

        assertThat(history.key(ORIGIN, old.thumbprint(), JAN_1)).isEqualTo(new KeyHistory.Unknown(JAN_10));
    }

    @Test
    void aReadingWithTheSameKeysIsNotKeptTwice() throws Exception {
        assertThat(history.add(reading(JAN_1, old))).isTrue();
        assertThat(history.add(reading(JAN_10, old))).isFalse();
        assertThat(history.add(reading(JAN_20, old, rotated))).isTrue();

        assertThat(history.readings(ORIGIN)).extracting(KeyDirectory::fetchedAt).containsExactly(JAN_1, JAN_20);
    }

    @Test
    void anOlderReadingAddedLaterTakesItsPlaceInTime() throws Exception {
        history.add(reading(JAN_20, rotated));
        history.add(reading(JAN_1, old));

        assertThat(history.readings(ORIGIN)).extracting(KeyDirectory::fetchedAt).containsExactly(JAN_1, JAN_20);
        assertThat(history.latest(ORIGIN).fetchedAt()).isEqualTo(JAN_20);
    }

    static KeyDirectory reading(Instant at, TestSigner... signers) throws KeyDirectory.RefusedException {
        return KeyDirectory.parse(ORIGIN, at, "test", TestSigner.directory(signers).getBytes(StandardCharsets.UTF_8), "");
    }
}
