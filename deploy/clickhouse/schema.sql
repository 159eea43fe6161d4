-- The schema crawl-errors creates on first use (ClickHouse 18.16 and later), for the database
-- crawl_errors and the cluster crawl_errors. It sends each statement to the servers named beside it
-- itself (18.16 runs ON CLUSTER only with ZooKeeper); nothing here needs to be run by hand. A DBA who
-- creates the tables in advance (for instance Replicated ones on a current release: README.md) keeps
-- these names, columns and sorting keys, and crawl-errors leaves existing tables as they are.
-- ClickHouseSchemaTest holds this file to what the code creates.

-- Every server: the database (crawl-errors creates it when missing).
CREATE DATABASE IF NOT EXISTS crawl_errors;

-- Every shard: the hits of the addresses the shard holds. ts_ms is the request's time in epoch
-- milliseconds (18.16 has no DateTime64); writer, seq and n say which process wrote the row, in which
-- of its batches, and its number there; location is where a redirect sent it, when the log says. A row counts
-- once its batch has a row in commits. A signed hit's claim also names what its signature proved
-- (signature: the group of its verdict; empty for an address's claim). Schema 4 had no location
-- column, schema 5 no signature column: crawl-errors adds them.
CREATE TABLE IF NOT EXISTS crawl_errors.hits_local (
  ts_ms Int64,
  writer UInt64,
  seq UInt64,
  n UInt64,
  utc_offset_minutes Int16,
  ip String,
  method String,
  url String,
  status UInt16,
  bytes Nullable(Int64),
  duration_ms Nullable(Float64),
  crawler String,
  bot_type String,
  user_agent Nullable(String),
  referer Nullable(String),
  host Nullable(String),
  location Nullable(String),
  signature String DEFAULT '',
  claim UInt64 MATERIALIZED cityHash64(ip, if(signature = '', crawler, concat(crawler, '\x1F', signature)))
) ENGINE = MergeTree
PARTITION BY toYYYYMM(toDateTime(intDiv(ts_ms, 1000)), 'UTC')
ORDER BY (ts_ms, writer, n);

-- Every shard: every verdict recorded, the same on all shards (each filters its own hits with it).
CREATE TABLE IF NOT EXISTS crawl_errors.verdict_log_local (
  ip String,
  crawler String,
  verification String,
  reason String,
  version UInt64,
  writer UInt64,
  seq UInt64,
  recorded DateTime DEFAULT now(),
  claim UInt64 MATERIALIZED cityHash64(ip, crawler)
) ENGINE = MergeTree
ORDER BY (claim, version);

-- Every shard: each claim's latest verdict (argMax/FINAL), for "which addresses are still unverified".
CREATE TABLE IF NOT EXISTS crawl_errors.verdicts_local (
  ip String,
  crawler String,
  verification String,
  reason String,
  version UInt64
) ENGINE = ReplacingMergeTree(version)
ORDER BY (ip, crawler);

CREATE MATERIALIZED VIEW IF NOT EXISTS crawl_errors.verdicts_latest TO crawl_errors.verdicts_local
AS SELECT ip, crawler, verification, reason, version FROM crawl_errors.verdict_log_local;

-- Every shard: the hits counted by minute, batch, status, bot type, crawler and claim, kept by the
-- materialized view below as hits are inserted (summed as parts merge): the report's counts read these
-- instead of the hits. Schema 2 had none: crawl-errors makes them and counts the hits stored before.
CREATE TABLE IF NOT EXISTS crawl_errors.minute_counts_local (
  minute Int64,
  writer UInt64,
  seq UInt64,
  status UInt16,
  bot_type String,
  crawler String,
  claim UInt64,
  hits UInt64
) ENGINE = SummingMergeTree(hits)
PARTITION BY toYYYYMM(toDateTime(minute * 60), 'UTC')
ORDER BY (minute, writer, seq, status, bot_type, crawler, claim);

CREATE MATERIALIZED VIEW IF NOT EXISTS crawl_errors.minute_counts_of_hits TO crawl_errors.minute_counts_local
AS SELECT intDiv(ts_ms, 60000) AS minute, writer, seq, status, bot_type, crawler, cityHash64(ip, if(signature = '', crawler, concat(crawler, '\x1F', signature))) AS claim, count() AS hits FROM crawl_errors.hits_local GROUP BY minute, writer, seq, status, bot_type, crawler, claim;

-- Every shard: each of its hits again under its URL's number (the same in every engine), ordered by
-- it, so that a URL's history is a short read; the URLs' states are folded from it.
CREATE TABLE IF NOT EXISTS crawl_errors.url_log_local (
  k Int64,
  host String,
  url String,
  ts_ms Int64,
  writer UInt64,
  seq UInt64,
  n UInt64,
  status UInt16,
  ip String,
  crawler String,
  bot_type String,
  claim UInt64 MATERIALIZED cityHash64(ip, crawler)
) ENGINE = MergeTree
ORDER BY (k, ts_ms, writer, n);

-- Every shard: the same hits again in time order, narrow: each URL's number, host and head (its first
-- directory, '/' or ''), not its name, kept by the materialized view below as url_log_local is
-- inserted into: a view of the URLs page over a time range reads these. Schema 7 had none:
-- crawl-errors makes them and fills them from url_log_local.
CREATE TABLE IF NOT EXISTS crawl_errors.url_times_local (
  ts_ms Int64,
  k Int64,
  writer UInt64,
  seq UInt64,
  n UInt64,
  status UInt16,
  claim UInt64,
  crawler String,
  bot_type String,
  host String,
  head String
) ENGINE = MergeTree
ORDER BY (ts_ms, writer, n);

CREATE MATERIALIZED VIEW IF NOT EXISTS crawl_errors.url_times_of_log TO crawl_errors.url_times_local AS SELECT ts_ms, k, writer, seq, n, status, cityHash64(ip, crawler) AS claim, crawler, bot_type, host, if(extract(url, '^/[^/?#]*/') != '', extract(url, '^/[^/?#]*/'), if(startsWith(url, '/'), '/', '')) AS head FROM crawl_errors.url_log_local;

-- Every server of the cluster: all shards' hits, sharded as the writers shard them, and all shards' counts.
CREATE TABLE IF NOT EXISTS crawl_errors.hits AS crawl_errors.hits_local ENGINE = Distributed(crawl_errors, crawl_errors, hits_local, halfMD5(ip));

CREATE TABLE IF NOT EXISTS crawl_errors.url_log AS crawl_errors.url_log_local ENGINE = Distributed(crawl_errors, crawl_errors, url_log_local);

CREATE TABLE IF NOT EXISTS crawl_errors.minute_counts AS crawl_errors.minute_counts_local ENGINE = Distributed(crawl_errors, crawl_errors, minute_counts_local);

CREATE TABLE IF NOT EXISTS crawl_errors.url_times AS crawl_errors.url_times_local ENGINE = Distributed(crawl_errors, crawl_errors, url_times_local);

-- The first shard only: each writer's committed batches and how far their logs were read: a log's
-- key (fingerprint), the fingerprint it begins with (prefix), the check of the bytes before where it
-- was read to, and, for a file read to its end, the file's identity, size and modification time (an
-- unchanged file is not opened again). The lease column makes the server refuse a commit of a writer
-- id older than 600 s, and claim_lease one whose logs were claimed more than 10 s before (claimed,
-- epoch seconds; 0 for none). Schema 1 had no prefix, check_hash or file_ columns, schema 3 no claimed
-- or claim_lease: crawl-errors adds them.
CREATE TABLE IF NOT EXISTS crawl_errors.commits (
  writer UInt64,
  seq UInt64,
  closed UInt8,
  fingerprint String,
  name String,
  bytes UInt64,
  lines UInt64,
  prefix String DEFAULT splitByChar('-', fingerprint)[1],
  check_hash Nullable(String),
  file_key String DEFAULT '',
  file_size UInt64 DEFAULT 0,
  file_modified_nanos Int64 DEFAULT 0,
  claimed UInt32 DEFAULT 0,
  claim_lease UInt8 MATERIALIZED throwIf(claimed > 0 AND toUInt32(now()) > claimed + 10),
  committed DateTime DEFAULT now(),
  lease UInt8 MATERIALIZED throwIf(now() > toDateTime(bitShiftRight(writer, 32)) + 600)
) ENGINE = ReplacingMergeTree(seq)
ORDER BY (writer, fingerprint);

-- The first shard only: a writer's claim on a log's position before it moves the log on from there
-- (withdrawn when another writer got there first): a log's position is recorded by compare-and-set.
CREATE TABLE IF NOT EXISTS crawl_errors.log_claims (
  fingerprint String,
  from_bytes UInt64,
  claim UInt64,
  withdrawn UInt8,
  made DateTime DEFAULT now()
) ENGINE = MergeTree
PARTITION BY toYYYYMMDD(made)
ORDER BY (fingerprint, from_bytes, claim);

-- The first shard only: which batches each snapshot (a report page's at=) holds.
CREATE TABLE IF NOT EXISTS crawl_errors.snapshots (
  total UInt64,
  fence UInt64,
  writer UInt64,
  seq UInt64,
  made DateTime DEFAULT now()
) ENGINE = MergeTree
PARTITION BY toYYYYMMDD(made)
ORDER BY (total, fence, writer);

-- The first shard only: the URLs' states kept, each row a URL's state in a scope (the default view's
-- crawlers '', every bot type '*', or one crawler) as of a fold's snapshot (version: its total; a row
-- without a status: none left), and each fold's snapshot. A read takes each URL's newest row up to the
-- newest fold.
CREATE TABLE IF NOT EXISTS crawl_errors.url_states (
  scope String,
  k Int64,
  host String,
  url String,
  ok Nullable(Int64), not_modified Nullable(Int64), redirects Nullable(Int64), client_errors Nullable(Int64),
  server_errors Nullable(Int64), error_hits Nullable(Int64), first_crawled Nullable(Int64), last_crawled Nullable(Int64),
  last_status Nullable(Int64), first_error Nullable(Int64), first_error_status Nullable(Int64), last_error Nullable(Int64),
  last_error_status Nullable(Int64), fixed_since Nullable(Int64), flips Nullable(Int64), carry Nullable(Int64),
  version UInt64
) ENGINE = MergeTree
ORDER BY (scope, k, version);

CREATE TABLE IF NOT EXISTS crawl_errors.url_folds (
  total UInt64,
  fence UInt64,
  writers Array(UInt64),
  seqs Array(UInt64),
  made DateTime DEFAULT now()
) ENGINE = MergeTree
ORDER BY total;

-- The first shard only.
CREATE TABLE IF NOT EXISTS crawl_errors.schema_version (
  version UInt32,
  applied DateTime DEFAULT now()
) ENGINE = MergeTree
ORDER BY version;

-- The first shard only: every reading of a Web Bot Auth signer's key directory whose keys changed,
-- the history a request's signature is checked against.
CREATE TABLE IF NOT EXISTS crawl_errors.signature_directories (
  origin String,
  fetched_ms Int64,
  source String,
  jwks String,
  proof String,
  recorded DateTime DEFAULT now()
) ENGINE = MergeTree
ORDER BY (origin, fetched_ms);

-- The first shard only: signatures waiting for a directory that could not be read, and those
-- checked since (a signature waits while it is in the first and not the second).
CREATE TABLE IF NOT EXISTS crawl_errors.signature_pending (
  id String,
  ip String,
  claim_crawler String,
  origin String,
  keyid String,
  alg Nullable(String),
  base String,
  signature String,
  request_ms Int64,
  kept DateTime DEFAULT now(),
  request Nullable(String)
) ENGINE = ReplacingMergeTree
ORDER BY id;

CREATE TABLE IF NOT EXISTS crawl_errors.signature_settled (
  id String,
  settled DateTime DEFAULT now()
) ENGINE = MergeTree
ORDER BY id;
