package dev.crawlerrors.crawler.dns;

import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;

/**
 * One DNS question, a name and a record type; the answer cache and the table of queries in flight
 * are keyed by it. {@link Name} compares case-insensitively, as DNS does.
 */
record DnsQuestion(Name name, int type) {

    Message toQuery() {
        return Message.newQuery(Record.newRecord(name, type, DClass.IN));
    }
}
