package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.store.StoreException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The servers a store spans, as the server {@code --db} names describes them: the shards of the
 * cluster named in {@code remote_servers} ({@code system.clusters}), or that server alone when it
 * has no such cluster. Every shard is reached over its own HTTP interface: 18.16 runs
 * {@code ON CLUSTER} DDL only through ZooKeeper, so the store sends each shard its DDL, and it
 * inserts each shard's hits straight into the shard's local table (no Distributed insert, which
 * queues rows on the initiator's disk). A shard's HTTP port is its macro {@code http_port} when its
 * config defines one (test clusters run several servers on one host), else the port of
 * {@code --db}. The first replica of each shard is the one written to.
 *
 * <p>Hits go to the shard {@code halfMD5(ip)} picks, by the weights of {@code remote_servers} as the
 * Distributed table {@code hits} (sharded by the same expression) picks them, so one address's hits
 * live on one shard. The commit log and the snapshots live on the first shard: the one place whose
 * reads are in commit order.
 */
final class ClickHouseCluster {

    /**
     * One shard: its number in {@code remote_servers} (from 1), its weight, its HTTP interface, and
     * its native address ({@code host:port}, which {@code remote()} takes), null for a server alone.
     */
    record Shard(int number, int weight, URI http, String tcp) {
    }

    /** The Distributed tables' sharding key; {@link #shardOf} computes the same in Java. */
    static final String SHARDING_KEY = "halfMD5(ip)";

    private final String name;
    private final List<Shard> shards;
    private final URI entry;
    /** For each of the weights' slots ({@code key % total}), the index of its shard. */
    private final int[] slots;
    private final Map<String, Integer> shardOfIp = new HashMap<>();
    private final MessageDigest md5;

    private ClickHouseCluster(String name, List<Shard> shards, URI entry) {
        this.name = name;
        this.shards = List.copyOf(shards);
        this.entry = entry;
        int total = 0;
        for (Shard shard : shards) {
            total += shard.weight();
        }
        slots = new int[Math.max(total, 1)];
        int slot = 0;
        for (int i = 0; i < shards.size(); i++) {
            for (int w = 0; w < shards.get(i).weight(); w++) {
                slots[slot++] = i;
            }
        }
        try {
            md5 = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has MD5", e);
        }
    }

    /** The servers the store at {@code location} spans, asked of its server. */
    static ClickHouseCluster discover(ClickHouseHttp http, ClickHouseLocation location) {
        URI entry = location.http();
        ClickHouseTsv.Reader rows = new ClickHouseTsv.Reader(http.query(entry,
                "SELECT shard_num, shard_weight, host_address, port, is_local FROM system.clusters WHERE cluster = "
                        + ClickHouseSql.quote(location.cluster()) + " AND replica_num = 1 ORDER BY shard_num"));
        List<Shard> shards = new ArrayList<>();
        while (rows.nextRow()) {
            int number = (int) rows.number();
            int weight = (int) rows.number();
            String host = rows.text();
            long tcpPort = rows.number();
            boolean local = rows.number() == 1;
            URI shardHttp = local ? entry : URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":"
                    + httpPort(http, entry, host, tcpPort, location));
            shards.add(new Shard(number, weight, shardHttp, (host.contains(":") ? "[" + host + "]" : host) + ":" + tcpPort));
        }
        if (shards.isEmpty()) {
            return single(entry);
        }
        return new ClickHouseCluster(location.cluster(), shards, entry);
    }

    /** A cluster of one shard named {@code name} at {@code server}, without asking it: for the schema a deployment reads. */
    static ClickHouseCluster discoveredForTest(String name, URI server) {
        return new ClickHouseCluster(name, List.of(new Shard(1, 1, server, null)), server);
    }

    /** A store on one server with no cluster. */
    static ClickHouseCluster single(URI server) {
        return new ClickHouseCluster(null, List.of(new Shard(1, 1, server, null)), server);
    }

    /** A shard's HTTP port: its macro http_port, asked through remote() on its TCP port, else the entry's port. */
    private static int httpPort(ClickHouseHttp http, URI entry, String host, long tcpPort, ClickHouseLocation location) {
        String address = (host.contains(":") ? "[" + host + "]" : host) + ":" + tcpPort;
        try {
            ClickHouseTsv.Reader macro = new ClickHouseTsv.Reader(http.query(entry, "SELECT substitution FROM remote("
                    + ClickHouseSql.quote(address) + ", system.macros, " + ClickHouseSql.quote(location.user()) + ", "
                    + ClickHouseSql.quote(location.password()) + ") WHERE macro = 'http_port'"));
            if (macro.nextRow()) {
                return Integer.parseInt(macro.text().strip());
            }
        } catch (ClickHouseException | NumberFormatException e) {
            throw new StoreException("cannot ask the shard at " + address + " of cluster " + location.cluster()
                    + " for its HTTP port: " + e.getMessage(), e);
        }
        return entry.getPort();
    }

    /** Whether hits are spread over a cluster (and read through Distributed tables). */
    boolean distributed() {
        return name != null;
    }

    String name() {
        return name;
    }

    List<Shard> shards() {
        return shards;
    }

    /** The server the store was named by, which runs the reads. */
    URI entry() {
        return entry;
    }

    /** The first shard: where the commit log and the snapshots live. */
    URI meta() {
        return shards.get(0).http();
    }

    /** The index in {@link #shards()} of the shard that holds the hits from {@code ip}. */
    int shardOf(String ip) {
        if (shards.size() == 1) {
            return 0;
        }
        Integer known = shardOfIp.get(ip);
        if (known != null) {
            return known;
        }
        // ClickHouse's halfMD5: the first 8 bytes of the MD5 digest, big-endian, unsigned
        byte[] digest = md5.digest(ip.getBytes(StandardCharsets.UTF_8));
        long key = 0;
        for (int i = 0; i < 8; i++) {
            key = (key << 8) | (digest[i] & 0xFF);
        }
        int shard = slots[(int) Long.remainderUnsigned(key, slots.length)];
        if (shardOfIp.size() >= 100_000) {
            shardOfIp.clear(); // a bound; addresses repeat, so the next ones fill it again
        }
        shardOfIp.put(ip, shard);
        return shard;
    }
}
