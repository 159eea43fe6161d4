#!/usr/bin/env bash
# The ClickHouse store (a two-shard cluster on this host) against the embedded DuckDB store, on the
# same data, in the same run.
#
# Run:  bench/clickhouse-vs-duckdb.sh [HITS]     (default 10000000: the read-path issue's 10M error hits;
#       2000000 took 10.5 min on this project's busy 2-core machines once, 10M 10 min on a quieter one)
#
# Generates HITS lines with dev.crawlerrors.bench.ErrorMonthLog (a month of crawler traffic that got
# error responses, in time order: every line an error hit), starts the two-shard cluster with
# deploy/clickhouse/test-cluster.sh, and measures, each figure for DuckDB and ClickHouse one after
# the other:
#   import    ./crawl-errors import LOG: wall clock of the whole process, hits/s, its peak RSS; for
#             ClickHouse also WORKERS (default 2) imports at once of the log split in as many parts
#             (round robin: each part a whole month), into a database of their own
#   start     ./crawl-errors serve (its default options): from launch to the first page answered
#   pages     dev.crawlerrors.bench.PageLatency: REQUESTS (default 200) requests each of the first page,
#             pages about the middle, the last page, and random pages of a filtered view (404s of
#             search crawlers on one day), one client, median and p99
#   readers   wrk, READERS (default 64) connections on 127.0.0.1 for WRK_SECONDS (default 20) each:
#             the page a reader opens (/crawl-errors, the default report's first page), then random
#             pages of the default view and of three filtered views (HTML): pages/s, p50, p99,
#             non-2xx answers (serve's --readers gate: a request waits up to 2 s, then is a 503);
#             then serve's peak RSS (VmHWM) and each ClickHouse server's
# Last, a summary: every figure of both stores and ClickHouse's as a ratio of DuckDB's, measured in
# this run. The ClickHouse servers (max_memory_usage 2 GB a query) and the JVMs share the machine's
# cores; absolute figures move with the machine's load, the ratios are the result.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
hits="${1:-10000000}"
requests="${REQUESTS:-200}"
wrk_seconds="${WRK_SECONDS:-20}"
readers="${READERS:-64}"
workers="${WORKERS:-2}"
case "$hits" in (*[!0-9]*|'') echo "usage: $0 [HITS]" >&2; exit 2 ;; esac
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }
[ -x /usr/sbin/clickhouse-server ] || { echo "clickhouse-server is not installed (apt-get install clickhouse-server)" >&2; exit 1; }

# shellcheck source=../bin/find-java
source "$here/bin/find-java"
java_home="$(find_java_home)" || { echo "no JDK 21 or newer found; set JAVA_HOME" >&2; exit 1; }
java="$java_home/bin/java"
cd "$here"
jar="target/crawl-errors.jar"
if [ ! -f "$jar" ]; then
  echo "building $jar ..." >&2
  JAVA_HOME="$java_home" mvn -B -q -DskipTests package >&2
fi
JAVA_HOME="$java_home" mvn -B -q test-compile >&2
cp="target/test-classes:$jar"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/clickhouse-vs-duckdb.XXXXXX")"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  deploy/clickhouse/test-cluster.sh stop "$tmp/ch" >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT

free_port() { "$java" -cp "$cp" dev.crawlerrors.bench.FreePort "$@"; }
base=$(free_port 3)   # three ports free at base+0..2 and base+10..12
CH_MAX_MEMORY_USAGE=2000000000 deploy/clickhouse/test-cluster.sh start "$tmp/ch" "$base" >&2
ch="clickhouse://127.0.0.1:$base"

log="$tmp/month.log"
"$java" -cp "$cp" dev.crawlerrors.bench.ErrorMonthLog "$hits" "$log"
cat "$log" >/dev/null
common=(--ip-ranges bench/ip-ranges --dns-server none)
# the launcher builds its start-up cache once per build: before any timing
: >"$tmp/empty.log"
./crawl-errors import --db "$tmp/warm.duckdb" "${common[@]}" "$tmp/empty.log" >/dev/null 2>&1 || true
./crawl-errors serve --db "$tmp/warm.duckdb" --port 0 "${common[@]}" >"$tmp/warm.out" 2>&1 & warm=$!
for _ in $(seq 600); do grep -q Serving "$tmp/warm.out" && break; sleep 1; done
kill "$warm"; wait "$warm" 2>/dev/null || true

now() { date +%s%N; }
peak_rss_mib() { awk '/VmHWM/ {printf "%d", $2 / 1024}' "/proc/$1/status"; }
settle() { # waits until both shards have no merge running, so one engine's figures are not the other's merges
  for _ in $(seq 300); do
    local m=0 p
    for p in "$base" $((base + 10)); do m=$((m + $(curl -s --data-binary 'SELECT count() FROM system.merges' "http://127.0.0.1:$p/"))); done
    [ "$m" = 0 ] && return; sleep 1
  done
}

declare -A fig   # store.figure -> value, for the summary

echo
echo "== import: $hits error hits ($(du -h "$log" | cut -f1) of log)"
import() { # label db log... -> prints seconds, hits/s, peak RSS
  local label=$1 db=$2; shift 2
  local t0 t1
  t0=$(now)
  /usr/bin/time -f %M -o "$tmp/$label.rss" ./crawl-errors import --db "$db" "${common[@]}" "$@" >"$tmp/$label.out" 2>"$tmp/$label.err" \
    || { cat "$tmp/$label.err" >&2; exit 1; }
  t1=$(now)
  fig[$label.import_s]=$(awk -v ns=$((t1 - t0)) 'BEGIN {printf "%.2f", ns / 1e9}')
  fig[$label.import_rate]=$(awk -v n="$hits" -v ns=$((t1 - t0)) 'BEGIN {printf "%d", n / (ns / 1e9)}')
  fig[$label.import_rss]=$(awk -v kb="$(cat "$tmp/$label.rss")" 'BEGIN {printf "%d", kb / 1024}')
  printf '%-24s %8s s  %10s hits/s  peak RSS %s MiB\n' "$label" "${fig[$label.import_s]}" "${fig[$label.import_rate]}" \
    "${fig[$label.import_rss]}"
}
import duckdb "$tmp/duck.duckdb" "$log"
settle
import clickhouse "$ch/bench" "$log"
if [ "$workers" -gt 1 ]; then
  split -n "r/$workers" -d "$log" "$tmp/part."
  settle
  t0=$(now)
  i=0
  for part in "$tmp"/part.*; do
    /usr/bin/time -f %M -o "$tmp/worker$i.rss" ./crawl-errors import --db "$ch/bench_workers" "${common[@]}" "$part" \
      >"$tmp/worker$i.out" 2>&1 & pids+=($!)
    i=$((i + 1))
  done
  for pid in "${pids[@]}"; do wait "$pid" || { cat "$tmp"/worker*.out >&2; exit 1; }; done
  pids=()
  t1=$(now)
  fig[workers.import_s]=$(awk -v ns=$((t1 - t0)) 'BEGIN {printf "%.2f", ns / 1e9}')
  fig[workers.import_rate]=$(awk -v n="$hits" -v ns=$((t1 - t0)) 'BEGIN {printf "%d", n / (ns / 1e9)}')
  fig[workers.import_rss]=$(cat "$tmp"/worker*.rss | sort -n | tail -1 | awk '{printf "%d", $1 / 1024}')
  printf '%-24s %8s s  %10s hits/s  peak RSS %s MiB (the larger worker)\n' "clickhouse, $workers workers" \
    "${fig[workers.import_s]}" "${fig[workers.import_rate]}" "${fig[workers.import_rss]}"
  # a worker's own "Store:" line counts what was committed when it ended, maybe before the other: check counts them all
  ./crawl-errors check --db "$ch/bench_workers" 2>/dev/null || { echo "check of the workers' store failed" >&2; exit 1; }
  rm -f "$tmp"/part.*
fi
grep -h "^Store:" "$tmp/duckdb.out" "$tmp/clickhouse.out"
settle

filter='status=404&bot=crawler_search&from=2025-05-14&to=2025-05-14'
random_filters=("$filter" 'status=5xx' 'url=/gent/')
to_ms() { # a wrk latency (12.3us, 4.5ms, 1.2s) in ms
  awk -v v="$1" 'BEGIN {
    if (v ~ /us$/) printf "%.2f", v / 1000; else if (v ~ /ms$/) printf "%.2f", v + 0;
    else if (v ~ /m$/) printf "%.2f", v * 60000; else printf "%.2f", v * 1000 }'
}
pages_of() { # port query -> the view's pages
  curl -s "http://127.0.0.1:$1/api/crawl-errors?$2&page=1" | sed 's/.*"pages":\([0-9]*\).*/\1/'
}
readers_run() { # label kind port -> wrk with $readers connections for $wrk_seconds
  local label=$1 kind=$2 port=$3
  wrk -t2 -c"$readers" -d"${wrk_seconds}s" --timeout 10s --latency -s bench/random-page.lua "http://127.0.0.1:$port" \
    >"$tmp/wrk-$label-$kind.out" 2>&1
  local out="$tmp/wrk-$label-$kind.out"
  fig[$label.$kind.rps]=$(awk '/Requests\/sec/ {printf "%.1f", $2}' "$out")
  fig[$label.$kind.p50]=$(to_ms "$(awk '/^ +50%/ {print $2}' "$out")")
  fig[$label.$kind.p99]=$(to_ms "$(awk '/^ +99%/ {print $2}' "$out")")
  local bad errors n
  bad=$(awk '/Non-2xx/ {print $NF}' "$out")
  n=$(awk '/requests in/ {print $1}' "$out")
  errors=$(grep -h "Socket errors" "$out" || true)
  # a request beyond serve's --readers waits up to 2 s, then is a 503: pages/s counts answers of every kind
  fig[$label.$kind.ok]=$(awk -v r="${fig[$label.$kind.rps]}" -v n="$n" -v b="${bad:-0}" 'BEGIN {printf "%.1f", (n > 0 ? r * (n - b) / n : 0)}')
  printf '%-12s %s readers, %-13s %8s pages/s (%s with a 200)  p50 %8s ms  p99 %8s ms  %s requests, non-2xx %s%s\n' "$label" "$readers" \
    "$kind:" "${fig[$label.$kind.rps]}" "${fig[$label.$kind.ok]}" "${fig[$label.$kind.p50]}" "${fig[$label.$kind.p99]}" "$n" \
    "${bad:-0}" "${errors:+ ($errors)}"
}
serve_and_measure() { # label db
  local label=$1 db=$2 port t0 t1 pid
  port=$(free_port 1)
  t0=$(now)
  ./crawl-errors serve --db "$db" --port "$port" --timezone UTC "${common[@]}" >"$tmp/serve-$label.out" 2>&1 & pid=$!
  pids+=("$pid")
  until curl -sf -o /dev/null "http://127.0.0.1:$port/crawl-errors"; do
    kill -0 "$pid" 2>/dev/null || { cat "$tmp/serve-$label.out" >&2; exit 1; }
    sleep 0.05
  done
  t1=$(now)
  fig[$label.start_s]=$(awk -v ns=$((t1 - t0)) 'BEGIN {printf "%.2f", ns / 1e9}')
  printf '%-12s start to first page %s s\n' "$label" "${fig[$label.start_s]}"
  "$java" -cp "$cp" dev.crawlerrors.bench.PageLatency "http://127.0.0.1:$port" "$requests" "$label" "$filter" | tee "$tmp/pages-$label.out"
  local kind
  for kind in first middle last filtered; do
    fig[$label.one.$kind.p50]=$(awk -v k="$kind" '$2 == k {print $4}' "$tmp/pages-$label.out")
    fig[$label.one.$kind.p99]=$(awk -v k="$kind" '$2 == k {print $7}' "$tmp/pages-$label.out")
  done
  local views="|$(pages_of "$port" "")" f
  for f in "${random_filters[@]}"; do views+=";$f|$(pages_of "$port" "$f")"; done
  MODE=first readers_run "$label" first "$port"
  MODE=random VIEWS="$views" readers_run "$label" random "$port"
  fig[$label.serve_rss]=$(peak_rss_mib "$pid")
  echo "$label serve peak RSS ${fig[$label.serve_rss]} MiB"
  kill "$pid"; wait "$pid" 2>/dev/null || true
}

echo
echo "== serving (one client: $requests requests per kind; then wrk, $readers connections, ${wrk_seconds} s a run)"
serve_and_measure duckdb "$tmp/duck.duckdb"
settle
serve_and_measure clickhouse "$ch/bench"
ch_rss=""
for s in 1 2; do
  ch_rss+="${ch_rss:+ + }$(peak_rss_mib "$(cat "$tmp/ch/shard$s/server.pid")")"
done
echo "clickhouse servers' peak RSS $ch_rss MiB"

echo
echo "== summary: $hits hits; ratio = ClickHouse (two shards) / DuckDB, this run"
row() { # what duckdb-value clickhouse-value
  awk -v w="$1" -v d="$2" -v c="$3" 'BEGIN {printf "%-44s %12s %12s %8s\n", w, d, c, (d + 0 > 0 && c != "") ? sprintf("%.2fx", c / d) : "-"}'
}
printf '%-44s %12s %12s %8s\n' "" DuckDB ClickHouse ratio
row "import, s" "${fig[duckdb.import_s]}" "${fig[clickhouse.import_s]}"
row "import, hits/s" "${fig[duckdb.import_rate]}" "${fig[clickhouse.import_rate]}"
[ "$workers" -gt 1 ] && row "import, $workers workers at once, hits/s" "${fig[duckdb.import_rate]}" "${fig[workers.import_rate]}"
row "import peak RSS, MiB" "${fig[duckdb.import_rss]}" "${fig[clickhouse.import_rss]}"
row "serve: start to first page, s" "${fig[duckdb.start_s]}" "${fig[clickhouse.start_s]}"
for kind in first middle last filtered; do
  row "1 client, $kind page p50, ms" "${fig[duckdb.one.$kind.p50]}" "${fig[clickhouse.one.$kind.p50]}"
  row "1 client, $kind page p99, ms" "${fig[duckdb.one.$kind.p99]}" "${fig[clickhouse.one.$kind.p99]}"
done
for kind in first random; do
  row "$readers readers, $kind pages/s" "${fig[duckdb.$kind.rps]}" "${fig[clickhouse.$kind.rps]}"
  row "$readers readers, $kind pages/s answered 200" "${fig[duckdb.$kind.ok]}" "${fig[clickhouse.$kind.ok]}"
  row "$readers readers, $kind p50, ms" "${fig[duckdb.$kind.p50]}" "${fig[clickhouse.$kind.p50]}"
  row "$readers readers, $kind p99, ms" "${fig[duckdb.$kind.p99]}" "${fig[clickhouse.$kind.p99]}"
done
row "serve peak RSS, MiB" "${fig[duckdb.serve_rss]}" "${fig[clickhouse.serve_rss]}"
echo "(ClickHouse's servers besides: peak RSS $ch_rss MiB)"
