#!/usr/bin/env bash
# The URL side at scale (issue 30): a store of HITS crawler hits over URLS distinct URLs (a month,
# mixed statuses, fixes, regressions and flapping planted: dev.crawlerrors.bench.UrlBenchLog), read
# through HTTP from `serve` in the same run as the report's own page (the baseline).
#
# Run:  bench/url-side.sh [HITS] [URLS]       (defaults 10,000,000 and 1,000,000; WORK=/tmp/url-side
#                                              keeps the log between runs; REQUESTS=100 per kind of page)
#       SETTLE=60 waits a minute after serve answers before timing (its first minute warms its caches)
#       STORE=path/to/store.duckdb SERVE_JAR=path/to/crawl-errors.jar bench/url-side.sh
#                                             (times the pages of a store imported before, served by
#                                              that build: run twice, alternating builds, to compare)
#
# Measures, in one run:
#   - the import of the month with URL states kept: wall time; BASELINE_JAR=path/to/crawl-errors.jar
#     (a build without them) imports the same log first, alternating, for the ratio
#   - the first page of the report (/api/crawl-errors): the baseline the URL pages are read against
#   - the URLs page: default view (broken now), and filtered (one crawler, a prefix, one day), then
#     the second page of each filtered view
#   - a URL's own page (/api/crawl-errors/url?url=...), a different URL each request
#   - serve's peak resident memory (VmHWM)
# p50 and p99 in milliseconds, each request with curl, one at a time.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
hits="${1:-10000000}"
urls="${2:-1000000}"
work="${WORK:-/tmp/url-side}"
requests="${REQUESTS:-100}"
port="${PORT:-18190}"
case "$hits$urls" in (*[!0-9]*|'') echo "usage: $0 [HITS] [URLS]" >&2; exit 2 ;; esac

# shellcheck source=../bin/find-java
source "$here/bin/find-java"
java_home="$(find_java_home)" || { echo "no JDK 21 or newer found; set JAVA_HOME" >&2; exit 1; }
java="$java_home/bin/java"
cd "$here"
if [ -z "${SERVE_JAR:-}" ] || [ -z "${STORE:-}" ]; then
  JAVA_HOME="$java_home" ./crawl-errors --version >/dev/null
  JAVA_HOME="$java_home" mvn -B -q -o test-compile >&2
fi
cp="target/test-classes:target/crawl-errors.jar"
mkdir -p "$work"

if [ -z "${STORE:-}" ] && { [ ! -f "$work/month.log" ] || [ "$(cat "$work/size" 2>/dev/null)" != "$hits $urls" ]; }; then
  echo "generating $hits hits over $urls URLs in $work ..." >&2
  rm -f "$work"/*.log "$work"/*.duckdb*
  "$java" -cp "$cp" dev.crawlerrors.bench.UrlBenchLog "$hits" "$urls" "$work/month.log"
  echo "$hits $urls" >"$work/size"
fi

import_with() { # $1: jar or "", $2: store
  local start end
  rm -f "$2" "$2.wal"
  start=$(date +%s.%N)
  if [ -n "$1" ]; then
    "$java" --enable-native-access=ALL-UNNAMED -jar "$1" import --db "$2" --ip-ranges bench/ip-ranges --dns-server none \
      "$work/month.log" >/dev/null 2>&1
  else
    JAVA_HOME="$java_home" ./crawl-errors import --db "$2" --ip-ranges bench/ip-ranges --dns-server none "$work/month.log" >/dev/null 2>&1
  fi
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}
store="${STORE:-$work/urls.duckdb}"
if [ -n "${STORE:-}" ]; then
  echo "store $store, imported before"
elif [ -n "${BASELINE_JAR:-}" ]; then
  for round in 1 2; do
    echo "import, baseline (round $round): $(import_with "$BASELINE_JAR" "$work/baseline.duckdb") s"
    echo "import, URL states kept (round $round): $(import_with "" "$work/urls.duckdb") s"
  done
else
  echo "import, URL states kept: $(import_with "" "$work/urls.duckdb") s"
fi

if [ -n "${SERVE_JAR:-}" ]; then
  "$java" --enable-native-access=ALL-UNNAMED -jar "$SERVE_JAR" serve --db "$store" --port "$port" --dns-server none --timezone UTC \
    >"$work/serve.out" 2>&1 &
else
  JAVA_HOME="$java_home" ./crawl-errors serve --db "$store" --port "$port" --dns-server none --timezone UTC >"$work/serve.out" 2>&1 &
fi
serve=$!
trap 'kill $serve 2>/dev/null || true' EXIT
for _ in $(seq 1 600); do
  curl -fs "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
  sleep 0.5
done
base="http://127.0.0.1:$port"
# the URLs' states brought up to the import (a 503 says they are being folded)
for _ in $(seq 1 1200); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "$base/api/crawl-errors/urls")" = 200 ] && break
  sleep 0.5
done

# SETTLE=seconds waits before timing, so that serve's work after it starts (tallies, patterns) is done
sleep "${SETTLE:-0}"

# times $requests GETs of the paths the function $1 prints (one a request); prints p50 and p99 in ms
timed() {
  local name=$1 file="$work/times-$1"
  : >"$file"
  for i in $(seq 1 "$requests"); do
    curl -s -o /dev/null -w '%{http_code} %{time_total}\n' "$base$($2 "$i")" >>"$file"
  done
  local bad
  bad=$(awk '$1 != 200' "$file" | wc -l)
  awk '{print $2 * 1000}' "$file" | sort -n | awk -v name="$name" -v bad="$bad" '{t[NR] = $1} END {
    printf "%-28s p50 %7.1f ms   p99 %7.1f ms   (%d requests, %d not 200)\n", name, t[int(NR * 0.5 + 0.5)], t[int(NR * 0.99 + 0.5)], NR, bad }'
}
report() { echo "/api/crawl-errors?page=$(( ($1 % 5) + 1 ))"; }
urls_default() { echo "/api/crawl-errors/urls?page=$(( ($1 % 3) + 1 ))"; }
urls_crawler() { echo "/api/crawl-errors/urls?crawler=Googlebot+Smartphone&page=$(( ($1 % 3) + 1 ))"; }
urls_filtered() {
  local day=$(( ($1 % 28) + 1 ))
  printf '/api/crawl-errors/urls?crawler=Googlebot+Smartphone&url=%%2Fantwerpen%%2F&from=2026-10-%02d&to=2026-10-%02d&state=broken,redirected,ok\n' \
    "$day" "$((day + 1))"
}
# the next page of each filtered view (the page after one read just before: its view made once a snapshot)
urls_filtered_next() { urls_filtered "$1" | sed 's/$/\&page=2/'; }
# URLs of every state, crawled last, for their own pages
curl -s "$base/api/crawl-errors/urls?state=broken,redirected,ok&sort=last_crawled" | python3 -c '
import json, sys, urllib.parse
for row in json.load(sys.stdin)["rows"]:
    print(urllib.parse.quote(row["url"], safe=""))' >"$work/some-urls"
mapfile -t some_urls <"$work/some-urls"
one_url() { echo "/api/crawl-errors/url?url=${some_urls[$(( $1 % ${#some_urls[@]} ))]}"; }

echo "store: ${STORE:-$hits hits over $urls URLs}; $requests requests each, one at a time"
timed "report, first pages" report
timed "URLs, default view" urls_default
timed "URLs, one crawler" urls_crawler
timed "URLs, filtered" urls_filtered
timed "URLs, filtered, page 2" urls_filtered_next
timed "a URL's own page" one_url
timed "report, first pages (again)" report
echo "serve's peak resident memory: $(awk '/VmHWM/ {print $2, $3}' "/proc/$serve/status")"
