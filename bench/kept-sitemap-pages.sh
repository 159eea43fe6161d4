#!/usr/bin/env bash
# The report's in_sitemap= first pages once serve's warm-up kept them (issue 32): one serve of JAR on STORE (a copy: serve
# writes to it; a store holding sitemaps, e.g. sitemap-side.sh's WORK/store.duckdb); once its /metrics say WANT answers
# were rendered ahead (default 6: the unfiltered and the two in_sitemap= first pages, HTML and JSON), asks the report's
# ?in_sitemap=yes, ?in_sitemap=no and unfiltered first pages (JSON) in turn, ROUNDS times (default 5), printing each time (s),
# then the serve's report answers found kept (hits), rendered (misses) and rendered ahead.
#
# Run:  bench/kept-sitemap-pages.sh JAR STORE PORT   (WANT, ROUNDS)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=../bin/find-java
source "$here/bin/find-java"
jar=$1; store=$2; port=$3; want=${WANT:-6}; rounds=${ROUNDS:-5}
t0=$(date +%s.%N)
"$(find_java_home)/bin/java" --enable-native-access=ALL-UNNAMED -Xmx512m -jar "$jar" serve --db "$store" --port "$port" \
  --dns-server none --timezone UTC >"$store.serve" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true' EXIT
ahead() { curl -s "http://127.0.0.1:$port/metrics" | awk '/^crawl_errors_page_cache_ahead_total/ {print int($2)}'; }
for _ in $(seq 1 1200); do a=$(ahead || true); [ "${a:-0}" -ge "$want" ] && break; sleep 0.5; done
echo "$want answers rendered ahead $(echo "$(date +%s.%N) - $t0" | bc) s after the start; load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$rounds"); do line=""
  for k in "/api/crawl-errors?in_sitemap=yes" "/api/crawl-errors?in_sitemap=no" "/api/crawl-errors"; do
    line="$line $(curl -s -o /dev/null -w '%{time_total}' "http://127.0.0.1:$port$k")"; done
  echo "round $r yes / no / unfiltered:$line"; done
curl -s "http://127.0.0.1:$port/metrics" | grep -E '^crawl_errors_page_cache_(hits|misses|ahead)_total'
