#!/usr/bin/env bash
# Sitemaps at scale (issue 32): a sitemap index of FILES child sitemaps (every other one gzipped)
# listing URLS URLs in all (dev.crawlerrors.bench.SitemapBenchSet), its children served over HTTP on
# loopback, read by the real `import --sitemap` beside a store of HITS crawler hits
# (dev.crawlerrors.bench.UrlBenchLog); then the report's pages with in_sitemap= read through HTTP from
# `serve` in the same run as the same pages without it (the baseline).
#
# Run:  bench/sitemap-side.sh [URLS] [FILES] [HITS]   (defaults 1,000,000, 20 and 10,000,000;
#                                                      WORK=/tmp/sitemap-side keeps the log and store
#                                                      between runs; REQUESTS=100 per kind of page;
#                                                      ROUNDS=3 sitemap reads of each kind)
#
# Measures, in one run, alternating:
#   - `import --sitemap INDEX` of an empty log into the store of HITS hits, against the same import
#     without --sitemap (the baseline): wall time and peak resident memory (GNU time's maximum RSS);
#     the difference is what reading and holding the sitemap costs (issue: <= 5 s, <= 100 MiB)
#   - the same pair importing DAY_LINES new lines (default 200,000: the month's first, a month on) into a fresh copy
#     of the store: an import that does work of its own fills its young generation whatever it reads,
#     so this pair's difference is what the sitemap adds to an import that is running anyway
#   - the report's page (/api/crawl-errors) and the URLs page (/api/crawl-errors/urls), each
#     unfiltered, with in_sitemap=yes and with in_sitemap=no, interleaved request by request, beside the
#     unfiltered page asked as ?page=1 (the same page under another address: the ratio between two
#     answers of the same work, the run's noise)
#     (issue: the filtered pages within 1.2x of the unfiltered); then the same kinds on pages never
#     asked before (request i asks page i + 1 of each kind): no reader's page is kept for them
#     (issue 34's rule: a figure counts when fresh parameters are as fast as repeated ones)
# p50 and p99 in milliseconds, each request with curl, one at a time.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
urls="${1:-1000000}"
files="${2:-20}"
hits="${3:-10000000}"
log_urls=1000000
work="${WORK:-/tmp/sitemap-side}"
requests="${REQUESTS:-100}"
rounds="${ROUNDS:-3}"
port="${PORT:-18191}"
files_port="${FILES_PORT:-18192}"
case "$urls$files$hits" in (*[!0-9]*|'') echo "usage: $0 [URLS] [FILES] [HITS]" >&2; exit 2 ;; esac

# shellcheck source=../bin/find-java
source "$here/bin/find-java"
java_home="$(find_java_home)" || { echo "no JDK 21 or newer found; set JAVA_HOME" >&2; exit 1; }
java="$java_home/bin/java"
cd "$here"
JAVA_HOME="$java_home" ./crawl-errors --version >/dev/null
JAVA_HOME="$java_home" mvn -B -q -o test-compile >&2
cp="target/test-classes:target/crawl-errors.jar"
mkdir -p "$work/sitemaps"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done' EXIT

# the sitemap's children, served on loopback (an index may list only HTTP(S) URLs)
python3 -m http.server "$files_port" --bind 127.0.0.1 --directory "$work/sitemaps" >/dev/null 2>&1 &
pids+=($!)
if [ "$(cat "$work/sitemaps/size" 2>/dev/null)" != "$urls $files" ]; then
  rm -f "$work"/sitemaps/*
  "$java" -cp "$cp" dev.crawlerrors.bench.SitemapBenchSet "$urls" "$files" "$work/sitemaps" \
    "http://127.0.0.1:$files_port/" "$log_urls"
  echo "$urls $files" >"$work/sitemaps/size"
fi
index="$work/sitemaps/sitemap-index.xml"

store="$work/store.duckdb"
if [ ! -f "$store" ] || [ "$(cat "$work/size" 2>/dev/null)" != "$hits" ]; then
  if [ "$(cat "$work/log-size" 2>/dev/null)" != "$hits" ]; then
    echo "generating $hits hits over $log_urls URLs in $work ..." >&2
    "$java" -cp "$cp" dev.crawlerrors.bench.UrlBenchLog "$hits" "$log_urls" "$work/month.log"
    echo "$hits" >"$work/log-size"
  fi
  rm -f "$store" "$store.wal"
  JAVA_HOME="$java_home" ./crawl-errors import --db "$store" --ip-ranges bench/ip-ranges --dns-server none \
    "$work/month.log" >/dev/null
  echo "$hits" >"$work/size"
fi
: >"$work/empty.log"

# one import of the empty log into the store, with the arguments given; prints "seconds max-RSS-MiB"
import_once() {
  /usr/bin/time -f '%e %M %U %S' -o "$work/time.out" env JAVA_HOME="$java_home" ./crawl-errors import --db "$store" \
    --ip-ranges bench/ip-ranges --dns-server none "$@" "$work/empty.log" >"$work/import.out" 2>&1 \
    || { cat "$work/import.out" >&2; exit 1; }
  awk '{printf "%.2f s  %6.1f MiB  (CPU %.2f s)", $1, $2 / 1024, $3 + $4}' "$work/time.out"
}
echo "sitemap: $urls URLs in $files files; store: $hits hits over $log_urls URLs"
for round in $(seq 1 "$rounds"); do
  echo "import, no sitemap (round $round):        $(import_once)"
  echo "import --sitemap INDEX (round $round):    $(import_once --sitemap "$index")"
done
grep -i sitemap "$work/import.out" || true

# the same pair, each importing DAY_LINES new lines into a fresh copy of the store: the month's first
# lines a month later (the same lines would be a log already imported, and skipped)
day_lines="${DAY_LINES:-200000}"
head -n "$day_lines" "$work/month.log" | sed 's#/Oct/2026:#/Nov/2026:#' >"$work/day.log"
import_day() {
  rm -rf "$work/copy.duckdb" "$work/copy.duckdb".*
  cp "$store" "$work/copy.duckdb"
  /usr/bin/time -f '%e %M %U %S' -o "$work/time.out" env JAVA_HOME="$java_home" ./crawl-errors import --db "$work/copy.duckdb" \
    --ip-ranges bench/ip-ranges --dns-server none "$@" "$work/day.log" >"$work/import.out" 2>&1 \
    || { cat "$work/import.out" >&2; exit 1; }
  awk '{printf "%.2f s  %6.1f MiB  (CPU %.2f s)", $1, $2 / 1024, $3 + $4}' "$work/time.out"
}
for round in $(seq 1 "$rounds"); do
  echo "import of $day_lines lines, no sitemap (round $round):      $(import_day)"
  echo "import of $day_lines lines, --sitemap INDEX (round $round): $(import_day --sitemap "$index")"
done
rm -rf "$work/copy.duckdb" "$work/copy.duckdb".*
grep -i sitemap "$work/import.out" || true

JAVA_HOME="$java_home" ./crawl-errors serve --db "$store" --port "$port" --dns-server none --timezone UTC \
  >"$work/serve.out" 2>&1 &
serve=$!
pids+=("$serve")
for _ in $(seq 1 600); do
  curl -fs "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
  sleep 0.5
done
base="http://127.0.0.1:$port"
for _ in $(seq 1 1200); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "$base/api/crawl-errors/urls")" = 200 ] && break
  sleep 0.5
done

# GETs each path of $@ in turn, $requests rounds (so the kinds share the machine's moods); then
# prints each one's p50 and p99 in ms and its ratio to the first (the baseline). FRESH=1: round i
# asks page i + 1 of each path, a page no request asked before
interleaved() {
  local i k url
  for k in "$@"; do : >"$work/times-${k//[^a-z]/_}"; done
  for i in $(seq 1 "$requests"); do
    for k in "$@"; do
      url="$base$k"
      if [ "${FRESH:-0}" = 1 ]; then
        case "$k" in (*\?*) url="$url&page=$((i + 1))" ;; (*) url="$url?page=$((i + 1))" ;; esac
      fi
      curl -s -o /dev/null -w '%{http_code} %{time_total}\n' "$url" >>"$work/times-${k//[^a-z]/_}"
    done
  done
  local first=""
  for k in "$@"; do
    local file="$work/times-${k//[^a-z]/_}" bad p50 p99
    bad=$(awk '$1 != 200' "$file" | wc -l)
    read -r p50 p99 < <(awk '{print $2 * 1000}' "$file" | sort -n | awk '{t[NR] = $1} END {
      print t[int(NR * 0.5 + 0.5)], t[int(NR * 0.99 + 0.5)] }')
    [ -n "$first" ] || first="$p50 $p99"
    awk -v k="$k" -v p50="$p50" -v p99="$p99" -v first="$first" -v bad="$bad" -v n="$requests" 'BEGIN {
      split(first, f, " ");
      printf "%-46s p50 %7.1f ms  p99 %7.1f ms  x%.2f / x%.2f  (%d requests, %d not 200)\n",
        k, p50, p99, p50 / f[1], p99 / f[2], n, bad }'
  done
}
echo "pages: $requests requests each, one at a time, interleaved; ratios p50 / p99 against the first line"
# ?page=1: the unfiltered page under another address (kept apart, the same work): its ratio is the noise
interleaved "/api/crawl-errors" "/api/crawl-errors?page=1" "/api/crawl-errors?in_sitemap=yes" "/api/crawl-errors?in_sitemap=no"
interleaved "/api/crawl-errors/urls" "/api/crawl-errors/urls?page=1" "/api/crawl-errors/urls?in_sitemap=yes" "/api/crawl-errors/urls?in_sitemap=no"
# fresh pages are the held rows' (DefaultViewRows) once they are copied: waited for, as a reader would find them
for _ in $(seq 1 "$((${HELD_WAIT:-900} * 2))"); do
  held=$(curl -s "$base/metrics" | awk '/^crawl_errors_default_rows_bytes/ {printf "%d", $2}')
  [ "${held:-0}" -gt 0 ] && break
  sleep 0.5
done
echo "fresh pages (request i: page i + 1 of each kind), default view's rows held: ${held:-0} bytes"
FRESH=1 interleaved "/api/crawl-errors" "/api/crawl-errors?in_sitemap=yes" "/api/crawl-errors?in_sitemap=no"
FRESH=1 interleaved "/api/crawl-errors/urls" "/api/crawl-errors/urls?in_sitemap=yes" "/api/crawl-errors/urls?in_sitemap=no"
for k in "" "?in_sitemap=yes" "?in_sitemap=no"; do
  echo "total$k: $(curl -s "$base/api/crawl-errors$k" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("total", d.get("totals", "?")))' 2>/dev/null | head -c 200)"
done
echo "serve's peak resident memory: $(awk '/VmHWM/ {print $2, $3}' "/proc/$serve/status")"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
