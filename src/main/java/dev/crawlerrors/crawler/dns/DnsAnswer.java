package dev.crawlerrors.crawler.dns;

import inet.ipaddr.ipv6.IPv6Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import org.xbill.DNS.AAAARecord;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.CNAMERecord;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.PTRRecord;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.SOARecord;
import org.xbill.DNS.Section;

/**
 * What one DNS response says about one question, reduced to what verification needs, with how long
 * it may be cached.
 *
 * @param kind       what sort of answer it is
 * @param records    the records of the asked type, after following CNAMEs in the answer; empty
 *                   unless {@code kind} is {@link Kind#RECORDS}
 * @param cnameTarget where a CNAME chain ends without records of the asked type; the name to ask
 *                   next. Only for {@link Kind#CNAME}
 * @param ttlSeconds how long the answer may be cached; 0 for failures, which are never cached
 * @param failure    what went wrong, worded to follow "DNS ", e.g. {@code answered SERVFAIL};
 *                   only for {@link Kind#FAILED}
 */
record DnsAnswer(Kind kind, List<Record> records, Name cnameTarget, long ttlSeconds, String failure) {

    enum Kind {
        /** Records of the asked type. */
        RECORDS,
        /** The name does not exist. */
        NXDOMAIN,
        /** The name exists but has no records of the asked type (NOERROR, empty answer). */
        NODATA,
        /** The answer is a CNAME chain whose end the server did not resolve: ask its target. */
        CNAME,
        /** No usable answer: timeout, SERVFAIL, REFUSED, a network error. */
        FAILED
    }

    /** Positive answers are cached at most this long, however long their TTL. */
    static final long MAX_TTL_SECONDS = 86_400;
    /** A negative answer without an SOA to say how long it holds is cached this long. */
    static final long DEFAULT_NEGATIVE_TTL_SECONDS = 3_600;
    /** CNAMEs followed within one answer; a longer chain is a loop or an attack. */
    static final int MAX_CNAME_HOPS = 8;

    static DnsAnswer failed(String failure) {
        return new DnsAnswer(Kind.FAILED, List.of(), null, 0, failure);
    }

    /** Reads a response to {@code question}. */
    static DnsAnswer of(DnsQuestion question, Message response) {
        int rcode = response.getRcode();
        if (rcode == Rcode.NXDOMAIN) {
            return negative(Kind.NXDOMAIN, response);
        }
        if (rcode != Rcode.NOERROR) {
            return failed("answered " + Rcode.string(rcode));
        }
        List<Record> answer = response.getSection(Section.ANSWER);
        Name current = question.name();
        long ttl = MAX_TTL_SECONDS;
        List<Record> found = new ArrayList<>(2);
        for (int hop = 0; hop <= MAX_CNAME_HOPS; hop++) {
            CNAMERecord alias = null;
            for (Record record : answer) {
                if (!record.getName().equals(current)) {
                    continue;
                }
                if (record.getType() == question.type()) {
                    found.add(record);
                } else if (alias == null && record instanceof CNAMERecord cname) {
                    alias = cname;
                }
            }
            if (!found.isEmpty()) {
                for (Record record : found) {
                    ttl = Math.min(ttl, record.getTTL());
                }
                return new DnsAnswer(Kind.RECORDS, List.copyOf(found), null, ttl, null);
            }
            if (alias == null) {
                break;
            }
            ttl = Math.min(ttl, alias.getTTL());
            current = alias.getTarget();
        }
        if (!current.equals(question.name())) {
            // A resolver that recurses would have put the target's records here; one that does not
            // (or a chain longer than we follow) leaves the last name for us to ask.
            return new DnsAnswer(Kind.CNAME, List.of(), current, ttl, null);
        }
        return negative(Kind.NODATA, response);
    }

    /** RFC 2308: a negative answer holds for the lesser of the SOA's TTL and its MINIMUM field. */
    private static DnsAnswer negative(Kind kind, Message response) {
        long ttl = DEFAULT_NEGATIVE_TTL_SECONDS;
        for (Record record : response.getSection(Section.AUTHORITY)) {
            if (record instanceof SOARecord soa) {
                ttl = Math.min(soa.getTTL(), soa.getMinimum());
                break;
            }
        }
        return new DnsAnswer(kind, List.of(), null, Math.min(ttl, MAX_TTL_SECONDS), null);
    }

    boolean cacheable() {
        return kind != Kind.FAILED && ttlSeconds > 0;
    }

    boolean negative() {
        return kind == Kind.NXDOMAIN || kind == Kind.NODATA;
    }

    /** The PTR targets. */
    List<Name> names() {
        List<Name> names = new ArrayList<>(records.size());
        for (Record record : records) {
            if (record instanceof PTRRecord ptr) {
                names.add(ptr.getTarget());
            }
        }
        return names;
    }

    /** The addresses of A and AAAA records. */
    List<InetAddress> addresses() {
        List<InetAddress> addresses = new ArrayList<>(records.size());
        for (Record record : records) {
            if (record instanceof ARecord a) {
                addresses.add(a.getAddress());
            } else if (record instanceof AAAARecord aaaa) {
                addresses.add(aaaa.getAddress());
            }
        }
        return addresses;
    }

    /** The answer as a reason shows it: {@code NXDOMAIN}, {@code none}, or the records' values. */
    String describe() {
        return switch (kind) {
            case NXDOMAIN -> "NXDOMAIN";
            case NODATA -> "none";
            case CNAME -> "CNAME " + cnameTarget.toString(true);
            case FAILED -> failure;
            case RECORDS -> {
                StringBuilder text = new StringBuilder();
                for (Record record : records) {
                    text.append(text.isEmpty() ? "" : ", ");
                    if (record instanceof PTRRecord ptr) {
                        text.append(ptr.getTarget().toString(true));
                    } else if (record instanceof ARecord a) {
                        text.append(text(a.getAddress()));
                    } else if (record instanceof AAAARecord aaaa) {
                        text.append(text(aaaa.getAddress()));
                    } else {
                        text.append(record.rdataToString());
                    }
                }
                yield text.toString();
            }
        };
    }

    /** An address as people write it: dotted quad, or IPv6 compressed as RFC 5952 says. */
    static String text(InetAddress address) {
        if (address instanceof Inet6Address) {
            return new IPv6Address(address.getAddress()).toCanonicalString();
        }
        return address.getHostAddress();
    }
}
