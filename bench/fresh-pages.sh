#!/usr/bin/env bash
# Pages never asked before: a new `serve -Xmx512m` of JAR on a copy of STORE (a DuckDB file, e.g. one of
# bench/read-side.sh's); wait for its counts (patterns and overview answer) and, for a build that holds the
# default view's rows (crawl_errors_default_rows_bytes in /metrics), for the copy; then 64 readers (wrk -t2
# -c64, 10 s) on random pages of the snapshot, each page asked once (bench/fresh-pages.lua: each wrk thread
# its own pages, shuffled; a store of fewer pages than 10 s of requests repeats them). Prints one line:
# pages/s, latency, serve's CPU a page (from /proc), RSS before the readers and peak (VmHWM), the load.
#
# Run:  bench/fresh-pages.sh JAR LABEL STORE [PORT]     (WORK=/tmp/fresh-pages holds the store's copy)
#       SECS=10 the readers' seconds: shorter than the store's pages take, so that no page is asked twice
# Alternate two jars (a baseline and a build) on the same store, several rounds, to compare them.
# FILTERED=N then times every kind of page of dev.crawlerrors.bench.ReadBench (one reader, N requests a kind,
# fresh parameters: filtered views never asked before), after the readers, with serve's CPU a page over them
# (needs target/test-classes: mvn test-compile).
# FIRST_SECS=N then puts 64 readers (wrk -t2 -c64) on the first page, JSON then HTML, N s each (the page most readers
# open), and prints its pages/s, latency and errors.
set -u
jar=$1 label=$2 store=$3 port=${4:-18190}
work=${WORK:-/tmp/fresh-pages}
mkdir -p "$work"
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source bin/find-java; java="$(find_java_home)/bin/java"
db=$work/run-$port.duckdb
rm -f $db $db.wal; cp "$store" $db
ticks=$(getconf CLK_TCK)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
started=$(date +%s%N)
"$java" -Xmx512m -jar "$jar" serve --db $db --port $port --dns-server none --ip-ranges bench/ip-ranges >$work/serve-$port.out 2>&1 &
pid=$!
# start to first page: the first 200 of the JSON and of the HTML first page, asked one after the other from the launch
firstjson=- firsthtml=-
until [ "$firstjson" != - ] && [ "$firsthtml" != - ]; do
  kill -0 $pid || exit 1
  if [ "$firstjson" = - ] && curl -sf -o /dev/null "http://127.0.0.1:$port/api/crawl-errors"; then firstjson=$(( ($(date +%s%N) - started) / 1000000 )); fi
  if [ "$firsthtml" = - ] && curl -sf -o /dev/null "http://127.0.0.1:$port/crawl-errors"; then firsthtml=$(( ($(date +%s%N) - started) / 1000000 )); fi
  sleep 0.02
done
until curl -sf -o /dev/null "http://127.0.0.1:$port/api/crawl-errors/patterns" && curl -sf -o /dev/null "http://127.0.0.1:$port/api/crawl-errors/overview"; do sleep 0.5; done
counted=$(( ($(date +%s%N) - started) / 1000000 ))
held=0; copy_cpu=-
for k in $(seq 1 $((${HELD_WAIT:-120} * 5))); do
  held=$(curl -s "http://127.0.0.1:$port/metrics" | awk '/^crawl_errors_default_rows_bytes/ {printf "%d", $2}')
  [ -z "$held" ] && { held=0; break; }   # a build without the rows held
  [ "$held" -gt 0 ] && break
  sleep 0.2
done
heldms=$(( ($(date +%s%N) - started) / 1000000 )); copys=$(curl -s "http://127.0.0.1:$port/metrics" | awk '/^crawl_errors_default_rows_copy_seconds/ {printf "%.2f", $2}')
for t in /proc/$pid/task/*; do
  if [ "$(cat $t/comm)" = report-rows ]; then copy_cpu=$(awk -v hz=$ticks '{printf "%.2f s", ($14+$15)/hz}' $t/stat); fi
done
# settle: until serve uses under 5% of a core for a second (background counts done)
for k in $(seq 1 60); do a=$(cpu_ticks $pid); sleep 1; b=$(cpu_ticks $pid); [ $((b - a)) -lt 5 ] && break; done
first=$(curl -s "http://127.0.0.1:$port/api/crawl-errors?page=1")
pages=$(echo "$first" | sed -E 's/.*"pages":([0-9]+).*/\1/')
at=$(echo "$first" | sed -E 's/.*"at":"([^"]+)".*/\1/')
rss_before=$(grep VmRSS /proc/$pid/status | awk '{printf "%.0f", $2/1024}'); hwm_before=$(grep VmHWM /proc/$pid/status | awk '{printf "%.0f", $2/1024}')
before=$(cpu_ticks $pid)
out=$(PAGES="$pages" AT="$at" wrk -t2 -c64 -d${SECS:-10}s --latency -s bench/fresh-pages.lua "http://127.0.0.1:$port")
after=$(cpu_ticks $pid)
n=$(echo "$out" | awk '/requests in/ {print $1}')
rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
p50=$(echo "$out" | awk '$1=="50%" {print $2}'); p99=$(echo "$out" | awk '$1=="99%" {print $2}')
non2xx=$(echo "$out" | awk '/Non-2xx/ {print $NF}'); sock=$(echo "$out" | awk '/Socket errors/ {print $0}')
hwm=$(grep VmHWM /proc/$pid/status | awk '{printf "%.0f", $2/1024}')
cpu=$(awk -v t=$((after - before)) -v hz=$ticks -v n=$n 'BEGIN {printf "%.3f", t * 1000 / hz / n}')
load=$(cut -d' ' -f1 /proc/loadavg)
filtered=""
if [ -n "${FILTERED:-}" ]; then
  before=$(cpu_ticks $pid)
  kinds=$("$java" -cp target/test-classes:"$jar" dev.crawlerrors.bench.ReadBench "http://127.0.0.1:$port" "$FILTERED" 2>&1)
  after=$(cpu_ticks $pid)
  asked=$(echo "$kinds" | grep -c 'p50')
  filtered=$(awk -v t=$((after - before)) -v hz=$ticks -v n=$((asked * FILTERED)) 'BEGIN {printf "cpu/page=%.3fms over %d pages", t * 1000 / hz / n, n}')
  hwm=$(grep VmHWM /proc/$pid/status | awk '{printf "%.0f", $2/1024}')
fi
firsts=""
if [ -n "${FIRST_SECS:-}" ]; then
  for path in /api/crawl-errors /crawl-errors; do
    out=$(wrk -t2 -c64 -d${FIRST_SECS}s --latency "http://127.0.0.1:$port$path")
    firsts="$firsts$label first page $path, 64 readers: $(echo "$out" | awk '/Requests\/sec/ {printf "%s/s", $2} $1=="50%" {printf " p50=%s", $2}
      $1=="99%" {printf " p99=%s", $2} /Non-2xx/ {printf " non2xx=%s", $NF} /Socket errors/ {printf " %s", $0}')
"
  done
  hwm=$(grep VmHWM /proc/$pid/status | awk '{printf "%.0f", $2/1024}')
fi
kill $pid; wait $pid 2>/dev/null
rm -f $db $db.wal
printf "%s" "$firsts"
if [ -n "$filtered" ]; then echo "$kinds" | sed "s/^/$label: /"; echo "$label ReadBench: $filtered"; fi
echo "$(date -u +%H:%M:%S) $label pages=$pages firstJson=${firstjson}ms firstHtml=${firsthtml}ms counted=${counted}ms held=${held}B heldAt=${heldms}ms copy=${copys:-}s copyThreadCpu=$copy_cpu | fresh: ${rps}/s n=$n p50=$p50 p99=$p99 non2xx=${non2xx:-0} ${sock} cpu/page=${cpu}ms | rss before=${rss_before}MiB hwm before=${hwm_before}MiB hwm=${hwm}MiB load=$load"
