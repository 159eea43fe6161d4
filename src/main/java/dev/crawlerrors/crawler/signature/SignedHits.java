package dev.crawlerrors.crawler.signature;

import dev.crawlerrors.crawler.Crawler;
import dev.crawlerrors.crawler.CrawlerHit;
import dev.crawlerrors.crawler.Verdict;
import dev.crawlerrors.crawler.Verification;
import dev.crawlerrors.ingest.Hit;
import dev.crawlerrors.ingest.SignatureFields;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Crawler hits of the requests that carry a Web Bot Auth signature: such a request is its signer's
 * hit whatever its user agent says (ChatGPT agent sends a plain Chrome agent), named for its
 * signer ({@link Signers}) and verified by its signature ({@link WebBotAuthVerifier}), not by its
 * address. Its claim names what the signature proved ({@link CrawlerHit#signedClaim}), so one
 * address's requests are each judged by their own signature.
 *
 * <p>An import leaves a signed request's whole check off its reader's path ({@link #verifyAll(List,
 * boolean)}): it keeps the line's fields as logged ({@link LoggedSignature}), names the signer
 * from its Signature-Agent alone, and {@link #settle} parses, rebuilds and checks later. Those,
 * and signatures whose directory cannot be read yet, are kept to be checked again, at most
 * {@link #MAX_PENDING} at a time (what the store already keeps counts): each a row of the store (its
 * own, or its hit's: {@link Waiting}) and, once settled, a claim of its own, and whoever writes the
 * requests chooses how many there are. Beyond the
 * bound a signature is checked at once, or, when its directory cannot be read, left unverified for
 * good, and says so.
 */
public final class SignedHits {

    /** Signatures waiting for their directory, at most. */
    public static final int MAX_PENDING = 100_000;

    private final WebBotAuthVerifier verifier;
    private final Signers signers;
    private final AtomicLong pendingBudget = new AtomicLong(MAX_PENDING);
    /** The store whose readings and waiting signatures this one was given; null before any. */
    private final java.util.concurrent.atomic.AtomicReference<Object> keeper = new java.util.concurrent.atomic.AtomicReference<>();

    /**
     * A signed request's crawler hit, and what checking it again needs when its directory could not
     * be read or its signature was left unchecked ({@code deferred}); else null.
     */
    public record Signed(CrawlerHit hit, PendingSignature pending, boolean deferred, LoggedSignature logged) {

        public Signed(CrawlerHit hit, PendingSignature pending, boolean deferred) {
            this(hit, pending, deferred, null);
        }
    }

    /**
     * Where a recorder's signed requests left unchecked wait: the first {@code apartFirst} in the store's
     * list of waiting signatures (each a claim of its own, named by a digest of the line,
     * {@link LoggedSignature#id}), the rest in their own hit's row ({@link CrawlerHit#waitsInRow}) under one
     * claim per address and signer ({@link CrawlerHit#WAITING_IN_ROWS}), each moved to a claim of its own
     * when settled. A claim, a row and a digest a line were most of what a waiting line cost an import
     * (BENCHMARKS.md). The first few go apart so that an import that leaves few checks them at its end
     * from memory, as before, until a batch takes the recorder past them ({@link #coming}). One a recorder whose store keeps them so (DuckDB's); not shared.
     */
    public static final class Waiting {

        private final long apartFirst;
        private final AtomicLong seen = new AtomicLong();
        private final AtomicLong inRows = new AtomicLong();

        public Waiting(long apartFirst) {
            this.apartFirst = apartFirst;
        }

        /** Whether the next line left unchecked waits in its row. */
        boolean inRow() {
            if (seen.incrementAndGet() <= apartFirst) {
                return false;
            }
            inRows.incrementAndGet();
            return true;
        }

        /**
         * {@code lines} signed lines are about to be left unchecked: when they take the recorder past the lines it
         * keeps apart, none of them goes apart. An import that leaves more than it checks at its end leaves them all
         * to serve, wherever they wait, and a line kept apart costs a digest, a row of its own and a place in the
         * settler's queue (a 50,000-line signed import's first 1,000 lines, most of its storing thread's added work).
         */
        void coming(int lines) {
            seen.getAndUpdate(s -> s < apartFirst && s + lines > apartFirst ? apartFirst : s);
        }

        /** How many lines wait in their rows. */
        public long inRows() {
            return inRows.get();
        }
    }

    /**
     * What a signed request kept as logged is stored with, by its Signature-Agent value (a signer signs
     * every request with the same one): its signer's crawler and its pending verdict, made once a value.
     */
    private final java.util.Map<String, Claimed> claimedByAgent = new java.util.concurrent.ConcurrentHashMap<>();

    /** The crawler and the pending verdict of the requests a Signature-Agent value (or none) names. */
    private record Claimed(Crawler crawler, Verdict verdict, java.util.Map<String, String> rowClaims) {

        Claimed(Crawler crawler, Verdict verdict) {
            this(crawler, verdict, new java.util.concurrent.ConcurrentHashMap<>());
        }

        /**
         * The claim of {@code ip}'s requests signed for this signer that wait in their rows, made once an
         * address (at most {@value #ROW_CLAIMS} kept): the same string for each, which the writer then finds
         * by identity rather than by hashing a key made anew for every line.
         */
        String rowClaim(String ip) {
            String claim = rowClaims.get(ip);
            if (claim == null) {
                if (rowClaims.size() >= ROW_CLAIMS) {
                    rowClaims.clear();
                }
                claim = CrawlerHit.claimKey(ip, CrawlerHit.signedClaim(crawler.name(), CrawlerHit.WAITING_IN_ROWS));
                rowClaims.put(ip, claim);
            }
            return claim;
        }

        private static final int ROW_CLAIMS = 4_096;
    }

    /** {@link Claimed} for a request without a Signature-Agent. */
    private volatile Claimed claimedByNone;
    /** Distinct Signature-Agent values remembered, at most: anyone may send any. */
    private static final int MAX_AGENTS = 1_000;

    public SignedHits(WebBotAuthVerifier verifier, Signers signers) {
        this.verifier = verifier;
        this.signers = signers;
    }

    public WebBotAuthVerifier verifier() {
        return verifier;
    }

    public Signers signers() {
        return signers;
    }

    /**
     * Whether {@code store} is the first to keep what this verification reads (its directories'
     * readings, the signatures waiting): the first to ask restores them into it, the rest need not.
     */
    public boolean keptBy(Object store) {
        return keeper.compareAndSet(null, store);
    }

    /** How many signatures may still be kept pending: {@link #MAX_PENDING} less those the store keeps already. */
    public void pendingKeptAlready(long kept) {
        pendingBudget.set(Math.max(0, MAX_PENDING - kept));
    }

    /** A pending signature was settled: its place may be taken. */
    public void settled(int count) {
        pendingBudget.addAndGet(count);
    }

    /**
     * Whether {@code hit} is a signed agent's: it carries a Signature-Agent, or a Signature-Input
     * tagged {@code web-bot-auth}. A request signed for another purpose (an API's own signatures)
     * without a Signature-Agent is left to its user agent.
     */
    public static boolean isSigned(Hit hit) {
        SignatureFields signed = hit.signed();
        return signed != null && (signed.signatureAgent() != null
                || (signed.signatureInput() != null && signed.signatureInput().contains(WebBotAuthSignature.TAG)));
    }

    /** The crawler hit of a signed request ({@link #isSigned}), its signature checked now. */
    public Signed verify(Hit hit) {
        return verify(hit, false);
    }

    /**
     * The crawler hit of a signed request ({@link #isSigned}); when {@code defer}, a signature not
     * met before whose other checks pass is left {@linkplain SignatureOutcome#deferred pending}
     * while the bound allows, else checked now.
     */
    public Signed verify(Hit hit, boolean defer) {
        return verify(hit, defer, null);
    }

    /** {@link #verify(Hit, boolean)}, a line left unchecked waiting as {@code waiting} says (null: apart). */
    private Signed verify(Hit hit, boolean defer, Waiting waiting) {
        SignatureFields fields = hit.signed();
        if (defer && pendingBudget.getAndDecrement() > 0) {
            return waiting != null && waiting.inRow() ? inRow(hit, fields) : logged(hit, fields);
        }
        if (defer) {
            pendingBudget.incrementAndGet();
        }
        SignedRequest request = SignedRequest.of(hit.method(), hit.host(), hit.url(), fields.signatureAgent());
        SignatureOutcome outcome = verifier.check(fields, request, hit.epochMillis(), hit.durationMs(), defer && pendingBudget.get() > 0,
                WebBotAuthVerifier.QUIET);
        Crawler crawler = signers.of(outcome.signer());
        if (outcome.pending() != null && pendingBudget.getAndDecrement() <= 0) {
            pendingBudget.incrementAndGet();
            outcome = outcome.deferred()
                    ? verifier.check(fields, request, hit.epochMillis(), hit.durationMs(), false, WebBotAuthVerifier.QUIET)
                    : new SignatureOutcome(new Verdict(Verification.unverified, "not checked: " + outcome.signer()
                    + "'s directory could not be read, and " + MAX_PENDING + " signed requests already wait for it"), "unchecked",
                    outcome.signer(), null);
        }
        // a signature that waits for its directory waits apart: its hit goes without the fields (CrawlerHit#waitsInRow)
        return new Signed(new CrawlerHit(outcome.pending() != null ? hit.withoutSignature() : hit, crawler, outcome.verdict(),
                CrawlerHit.claimKey(hit.ip(), CrawlerHit.signedClaim(crawler.name(), outcome.group()))), outcome.pending(),
                outcome.deferred());
    }

    /**
     * A signed request left to wait in its hit's row, every check left to {@link #settle}: its claim its
     * address's and signer's ({@link CrawlerHit#WAITING_IN_ROWS}) until then; its fields go with the hit to the store.
     */
    private Signed inRow(Hit hit, SignatureFields fields) {
        Claimed claimed = claimed(fields);
        return new Signed(new CrawlerHit(hit, claimed.crawler(), claimed.verdict(), claimed.rowClaim(hit.ip())), null, true);
    }

    /**
     * A signed request kept as logged, every check left to {@link #settle}: its signer named from its
     * Signature-Agent alone (parsed once per distinct value), its verdict pending.
     */
    private Signed logged(Hit hit, SignatureFields fields) {
        LoggedSignature logged = new LoggedSignature(hit.ip(), fields, hit.method(), hit.host(), hit.url(), hit.epochMillis(), hit.durationMs());
        Claimed claimed = claimed(fields);
        // the fields go with the signature kept apart, not with the hit waiting for the store
        return new Signed(new CrawlerHit(hit.withoutSignature(), claimed.crawler(), claimed.verdict(), CrawlerHit.claimKey(hit.ip(),
                CrawlerHit.signedClaim(claimed.crawler().name(), "pending " + logged.id()))), null, true, logged);
    }

    /** The signer a request's Signature-Agent names, as {@link Claimed}: parsed once per distinct value. */
    private Claimed claimed(SignatureFields fields) {
        String agent = fields.signatureAgent();
        if (agent == null) {
            Claimed none = claimedByNone;
            if (none == null) {
                none = claimedBy(null);
                claimedByNone = none;
            }
            return none;
        }
        Claimed known = claimedByAgent.get(agent);
        if (known == null) {
            if (claimedByAgent.size() >= MAX_AGENTS) {
                claimedByAgent.clear();
            }
            known = claimedBy(WebBotAuthVerifier.claimedSigner(fields));
            claimedByAgent.put(agent, known);
        }
        return known;
    }

    private Claimed claimedBy(SignerOrigin origin) {
        return new Claimed(signers.of(origin), new Verdict(Verification.unverified, (origin == null ? "signed" : "signed for " + origin)
                + "; check pending: " + WebBotAuthVerifier.NOT_CHECKED_YET + "; will check again"));
    }

    /**
     * Checks a signed request kept as logged ({@link #verify(Hit, boolean)}), all of it: the
     * outcome is what checking it on the reader's path would have found.
     */
    public SignatureOutcome settle(LoggedSignature logged) {
        return verifier.check(logged.fields(), logged.request(), logged.requestMillis(), logged.durationMs(), false,
                WebBotAuthVerifier.QUIET);
    }

    /**
     * What checking one signed request finds, for {@code crawl-errors verify}: the signer, the
     * outcome, and each step taken, in words.
     */
    public record Explanation(Crawler signer, SignatureOutcome outcome, List<String> steps) {
    }

    /** Checks the request these headers and parts describe, made at {@code at}, and says how. */
    public Explanation explain(String signature, String signatureInput, String signatureAgent, String method, String host, String target,
            java.time.Instant at) {
        SignatureFields fields = SignatureFields.of(signature, signatureInput, signatureAgent);
        List<String> steps = new ArrayList<>();
        if (fields == null) {
            fields = new SignatureFields(null, null, null);
        }
        SignatureOutcome outcome = verifier.check(fields, SignedRequest.of(method, host, target, fields.signatureAgent()), at.toEpochMilli(),
                Double.NaN, steps::add);
        return new Explanation(signers.of(outcome.signer()), outcome, steps);
    }

    /**
     * The crawler hits of signed requests ({@link #verify(Hit, boolean)}), in their order, checked on
     * every core when checked now (an Ed25519 check costs what parsing some hundred lines does): all of
     * them, or when deferring, those past the bound of signatures kept waiting.
     */
    public List<Signed> verifyAll(List<Hit> hits, boolean defer) {
        return verifyAll(hits, defer, null);
    }

    /** {@link #verifyAll(List, boolean)}, the lines left unchecked waiting as {@code waiting} says (null: apart). */
    public List<Signed> verifyAll(List<Hit> hits, boolean defer, Waiting waiting) {
        if (hits.size() < 2) {
            List<Signed> all = new ArrayList<>(hits.size());
            hits.forEach(hit -> all.add(verify(hit, defer, waiting)));
            return all;
        }
        if (!defer) {
            return hits.parallelStream().map(hit -> verify(hit, false)).toList();
        }
        List<Signed> all = new ArrayList<>(hits.size());
        if (waiting != null) {
            waiting.coming(hits.size());
        }
        int i = 0;
        while (i < hits.size() && pendingBudget.get() > 0) {
            all.add(verify(hits.get(i++), true, waiting));
        }
        if (i < hits.size()) {
            // past the bound of signatures kept waiting, each is checked now: on every core, as when none is deferred
            // (a check costs some 0.6 ms of CPU: one after the other on the reader's thread, the lines past the bound
            // were read at some 4,500 a second)
            all.addAll(hits.subList(i, hits.size()).parallelStream().map(hit -> verify(hit, true)).toList());
        }
        return all;
    }
}
