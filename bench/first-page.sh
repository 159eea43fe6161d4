#!/usr/bin/env bash
# Start to first page: a new `serve -Xmx512m` of JAR on a copy of STORE (a DuckDB file), and the time from its
# launch to the first 200 of `/api/crawl-errors` and of `/crawl-errors` (each asked every 20 ms from the launch,
# one after the other, until it answers 200), whatever serve counts in the background meanwhile; then serve
# is stopped. Prints one line: the two times, the first page's total ("counting" while its view is not counted
# yet), serve's CPU until then, the load.
#
# Run:  bench/first-page.sh JAR LABEL STORE [PORT]     (WORK=/tmp/first-page holds the store's copy)
#       LAUNCHER=1: JAR is the launcher (`./crawl-errors`, its trained start-up cache and options), run as `JAR serve ...`
# Alternate two jars on the same store, several rounds, to compare them.
set -u
jar=$1 label=$2 store=$3 port=${4:-18190}
work=${WORK:-/tmp/first-page}
mkdir -p "$work"
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source bin/find-java; java="$(find_java_home)/bin/java"
db=$work/run-$port.duckdb
rm -rf $db $db.wal $db.serve $db.serve.d; cp "$store" $db
ticks=$(getconf CLK_TCK)
cpu() { awk -v hz=$ticks '{printf "%.2f", ($14 + $15) / hz}' /proc/$pid/stat; }
started=$(date +%s%N)
if [ -n "${LAUNCHER:-}" ]; then
  "$jar" serve --db $db --port $port --dns-server none --ip-ranges bench/ip-ranges >$work/serve-$port.out 2>&1 &
else
  "$java" -Xmx512m -jar "$jar" serve --db $db --port $port --dns-server none --ip-ranges bench/ip-ranges >$work/serve-$port.out 2>&1 &
fi
pid=$!
json=- html=- listening=-
until [ "$json" != - ] && [ "$html" != - ]; do
  kill -0 $pid 2>/dev/null || { echo "$label: serve stopped"; exit 1; }
  if [ "$listening" = - ] && curl -s -o /dev/null "http://127.0.0.1:$port/health"; then listening=$(( ($(date +%s%N) - started) / 1000000 )); fi
  if [ "$json" = - ]; then
    body=$(curl -sf "http://127.0.0.1:$port/api/crawl-errors") && { json=$(( ($(date +%s%N) - started) / 1000000 )); jsoncpu=$(cpu); total=$(echo "$body" | sed -E 's/.*"total":([0-9]+).*/\1/; s/.*"counting":true.*/counting/' | cut -c1-20); }
  fi
  if [ "$html" = - ] && curl -sf -o /dev/null "http://127.0.0.1:$port/crawl-errors"; then html=$(( ($(date +%s%N) - started) / 1000000 )); htmlcpu=$(cpu); fi
  sleep 0.02
done
kill $pid; wait $pid 2>/dev/null
rm -rf $db $db.wal $db.serve $db.serve.d
echo "$(date -u +%H:%M:%S) $label listening=${listening}ms firstJson=${json}ms (cpu ${jsoncpu}s) firstHtml=${html}ms (cpu ${htmlcpu}s) total=${total:-?} load=$(cut -d' ' -f1 /proc/loadavg)"
