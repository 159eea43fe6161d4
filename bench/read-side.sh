#!/usr/bin/env bash
# The read side at scale: report pages through HTTP from `serve` with its default options, on a store
# of LINES error hits (default 10,000,000, a month of Googlebot), against plain DuckDB on the same file.
#
# Run:  bench/read-side.sh [LINES]          (WORK=/tmp/read-side keeps the logs and stores between runs;
#                                            REQUESTS=200 per kind of page; WRK_SECONDS=30)
#
# Builds two stores from bench data (dev.crawlerrors.bench.ReadBenchLog): "in order", one import of the
# month's log; "out of order", the same lines as four servers' logs imported one after another. For each:
#   - plain DuckDB, ORDER BY ts DESC, id DESC LIMIT 100 OFFSET n (first, middle, last, random page): the baseline
#   - start to first page: from launching `crawl-errors serve` to the first 200 of /api/crawl-errors
#   - one reader: first (JSON and HTML), middle, last, random, filtered pages, p50 and p99 (dev.crawlerrors.bench.ReadBench)
#   - start to counts ready: until the patterns and the overview, which serve counts in the background
#     when it starts, answer (the pages below are timed after it, so they do not share the cores with it)
#   - one reader, each filter alone (status, bot type, verification, crawler, host, URL prefix, time
#     range) and all at once, fresh values every request (a view never asked before: the time ranges
#     start at a random minute), and the same combined view repeated, to compare the two
#   - 64 readers on random pages of one snapshot for WRK_SECONDS (wrk), each wrk thread its own pages:
#     pages/s, errors, latency, and serve's CPU time a page (from /proc); then 64 readers on the
#     first page, JSON and HTML (the page most readers open)
#   - serve's peak resident memory (VmHWM)
# BASELINE_JAR=path/to/crawl-errors.jar (a build of an earlier commit) times its serve the same way,
# in the same run, before this build's; PLAIN=0 leaves out plain DuckDB's OFFSET pages; STORES="in-order"
# measures one store only; CLICKHOUSE=1 also imports the month into a two-shard ClickHouse cluster on this
# host (deploy/clickhouse/test-cluster.sh, stopped at the end) and measures serve on it the same way.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
lines="${1:-10000000}"
work="${WORK:-/tmp/read-side}"
requests="${REQUESTS:-200}"
wrk_seconds="${WRK_SECONDS:-30}"
port="${PORT:-18180}"
case "$lines" in (*[!0-9]*|'') echo "usage: $0 [LINES]" >&2; exit 2 ;; esac
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }

# shellcheck source=../bin/find-java
source "$here/bin/find-java"
java_home="$(find_java_home)" || { echo "no JDK 21 or newer found; set JAVA_HOME" >&2; exit 1; }
java="$java_home/bin/java"
cd "$here"
JAVA_HOME="$java_home" ./crawl-errors --version >/dev/null   # builds the jar and trains the start-up cache
JAVA_HOME="$java_home" mvn -B -q test-compile >&2
cp="target/test-classes:target/crawl-errors.jar"
mkdir -p "$work"

if [ ! -f "$work/month.log" ] || [ "$(cat "$work/lines" 2>/dev/null)" != "$lines" ]; then
  echo "generating $lines lines in $work ..." >&2
  rm -f "$work"/*.log "$work"/*.duckdb*
  "$java" -cp "$cp" dev.crawlerrors.bench.ReadBenchLog "$lines" "$work" 4
  echo "$lines" >"$work/lines"
fi
import() {
  JAVA_HOME="$java_home" ./crawl-errors import --db "$1" --ip-ranges bench/ip-ranges --dns-server none "${@:2}" >/dev/null 2>&1
}
stores="${STORES:-in-order out-of-order}"
if [[ " $stores " == *" in-order "* ]] && [ ! -f "$work/in-order.duckdb" ]; then
  echo "importing the month into $work/in-order.duckdb ..." >&2
  import "$work/in-order.duckdb" "$work/month.log"
fi
if [[ " $stores " == *" out-of-order "* ]] && [ ! -f "$work/out-of-order.duckdb" ]; then
  echo "importing four servers' logs one after another into $work/out-of-order.duckdb ..." >&2
  for n in 1 2 3 4; do import "$work/out-of-order.duckdb" "$work/server-$n.log"; done
fi

cat >"$work/random-pages.lua" <<'LUA'
-- each wrk thread its own pages: one seed for all gave every page twice
local pages, at = tonumber(os.getenv("PAGES")), os.getenv("AT")
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("id", threads)
end
function init(args)
  math.randomseed(42 + id)
end
request = function()
  return wrk.format("GET", "/api/crawl-errors?page=" .. math.random(1, pages) .. "&at=" .. at)
end
LUA

ch_dir=""
cleanup() {
  kill "${serve_pid:-}" 2>/dev/null || true
  if [ -n "$ch_dir" ]; then deploy/clickhouse/test-cluster.sh stop "$ch_dir" >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT
ticks=$(getconf CLK_TCK)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# times one serve of $db: "$@" is the command that serves it on $port
measure_serve() {
  local started pid first pages at before out requests_done
  started=$(date +%s%N)
  "$@" >"$work/serve.out" 2>&1 &
  pid=$!
  serve_pid=$pid
  until curl -sf -o /dev/null "http://127.0.0.1:$port/api/crawl-errors?page=1"; do
    kill -0 "$pid" 2>/dev/null || { cat "$work/serve.out"; exit 1; }
    sleep 0.02
  done
  kill -0 "$pid" 2>/dev/null || { echo "another server answers on port $port (PORT=... picks another)" >&2; exit 1; }
  echo "start to first page: $(( ($(date +%s%N) - started) / 1000000 )) ms"
  until curl -sf -o /dev/null "http://127.0.0.1:$port/api/crawl-errors/patterns" \
      && curl -sf -o /dev/null "http://127.0.0.1:$port/api/crawl-errors/overview"; do
    sleep 0.5
  done
  echo "start to counts ready: $(( ($(date +%s%N) - started) / 1000000 )) ms"
  "$java" -cp "$cp" dev.crawlerrors.bench.ReadBench "http://127.0.0.1:$port" "$requests"
  first=$(curl -s "http://127.0.0.1:$port/api/crawl-errors?page=1")
  pages=$(echo "$first" | sed -E 's/.*"pages":([0-9]+).*/\1/')
  at=$(echo "$first" | sed -E 's/.*"at":"([^"]+)".*/\1/')
  before=$(cpu_ticks "$pid")
  out=$(PAGES="$pages" AT="$at" wrk -t2 -c64 -d"${wrk_seconds}s" --latency -s "$work/random-pages.lua" "http://127.0.0.1:$port")
  echo "$out" | grep -E "Requests/sec|Non-2xx|Socket errors|50%|99%|requests in"
  requests_done=$(echo "$out" | awk '/requests in/ {print $1}')
  echo "serve CPU a page under 64 readers: $(awk -v t="$(( $(cpu_ticks "$pid") - before ))" -v hz="$ticks" -v n="$requests_done" \
    'BEGIN {printf "%.2f ms", t * 1000 / hz / n}')"
  for first in /api/crawl-errors /crawl-errors; do
    echo "64 readers on the first page, $first:"
    wrk -t2 -c64 -d"${wrk_seconds}s" --latency "http://127.0.0.1:$port$first" | grep -E "Requests/sec|Non-2xx|Socket errors|50%|99%"
  done
  echo "serve peak resident memory: $(grep VmHWM /proc/$pid/status | awk '{printf "%.0f MiB", $2/1024}')"
  kill "$pid"; wait "$pid" 2>/dev/null || true
}

for store in $stores; do
  db="$work/$store.duckdb"
  echo
  echo "== $store: $db"
  if [ "${PLAIN:-1}" != 0 ]; then
    "$java" --enable-native-access=ALL-UNNAMED -cp "$cp" dev.crawlerrors.bench.ReadBench --duckdb "$db" 50
  fi
  if [ -n "${BASELINE_JAR:-}" ]; then
    echo "-- baseline: $BASELINE_JAR"
    measure_serve "$java" --enable-native-access=ALL-UNNAMED -jar "$BASELINE_JAR" serve --db "$db" --port "$port"
    echo "-- this build"
  fi
  measure_serve env JAVA_HOME="$java_home" ./crawl-errors serve --db "$db" --port "$port"
done

if [ "${CLICKHOUSE:-0}" = 1 ]; then
  [ -x /usr/sbin/clickhouse-server ] || { echo "clickhouse-server is not installed" >&2; exit 1; }
  ch_dir="$work/ch"
  base=$("$java" -cp "$cp" dev.crawlerrors.bench.FreePort 3)
  CH_MAX_MEMORY_USAGE=2000000000 deploy/clickhouse/test-cluster.sh start "$ch_dir" "$base" >&2
  db="clickhouse://127.0.0.1:$base/bench"
  echo "importing the month into $db ..." >&2
  import "$db" "$work/month.log"
  echo
  echo "== clickhouse, in order: $db"
  if [ -n "${BASELINE_JAR:-}" ]; then
    echo "-- baseline: $BASELINE_JAR"
    measure_serve "$java" --enable-native-access=ALL-UNNAMED -jar "$BASELINE_JAR" serve --db "$db" --port "$port"
    echo "-- this build"
  fi
  measure_serve env JAVA_HOME="$java_home" ./crawl-errors serve --db "$db" --port "$port"
fi
