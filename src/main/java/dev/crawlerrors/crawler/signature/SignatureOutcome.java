package dev.crawlerrors.crawler.signature;

import dev.crawlerrors.crawler.Verdict;

/**
 * What checking a request's Web Bot Auth signature found.
 *
 * @param verdict  the verdict and its reason; the reason names the evidence (the signer's
 *                 directory, the key's thumbprint, when the key was published) and is the same for
 *                 every request of its {@link #group}
 * @param group    what the verdict stands for ({@code verified <key>}, {@code expired}, one signature
 *                 still to check): requests of one address, signer and group share one claim
 * @param signer   the signer's origin, or null when none can be told
 * @param pending  what checking it again needs, when its directory could not be read or its
 *                 signature was left to be checked off the reader's path; null otherwise
 * @param deferred whether {@code pending} is a signature whose every other check passed, left to a
 *                 background check of its bytes alone ({@link WebBotAuthVerifier#check})
 */
public record SignatureOutcome(Verdict verdict, String group, SignerOrigin signer, PendingSignature pending, boolean deferred) {

    public SignatureOutcome(Verdict verdict, String group, SignerOrigin signer, PendingSignature pending) {
        this(verdict, group, signer, pending, false);
    }
}
