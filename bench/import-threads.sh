#!/usr/bin/env bash
# Where an import's time goes: its CPU by thread, in the read phase and in the close, beside its wall
# clock, its peak RSS and `grep -c` on the same log (issue 34 item 4).
#
# Run:  WORK=/tmp/NAME bench/import-threads.sh LOG [TREE...]     (RUNS=3 rounds; TREE: a checkout
#       with its target/crawl-errors.jar, default this one; several trees alternate, rotated each round)
#
# Each run is `TREE/crawl-errors import --db <fresh store under WORK> --ip-ranges TREE/bench/ip-ranges
# LOG` through the tree's launcher (default options: identification and verification on), preceded
# once per tree by an import of LOG's first 1,000 lines, so the launcher's start-up cache is trained
# before any timing. Every 0.1 s the threads' user+system ticks (/proc/PID/task/*/stat) are read and
# kept by thread; threads are summed by name:
#   main      the JVM's main thread: reads the log's chunks, identifies and verifies crawlers, hands hits on
#   parsers   log-parser: the lines parsed on every core
#   writer    store-writer: DuckDB's appends, the URL states beside them, the commits, the close's fold
#             and checkpoint; DuckDB's own worker threads take the name of the thread that starts them,
#             so with more than one DuckDB thread they are counted here too
#   jit       the C1 and C2 compiler threads
#   gc        VM Thread (the serial collector's collections)
#   other     the rest (IP lists, DNS, the store's opening)
# The read phase ends when the parser threads are gone (their pool stops when the log is read); the
# close is what follows (the last commit, the URL states' fold, the checkpoint). A thread that ends
# between two samples loses at most 0.1 s of ticks. Peak RSS is VmHWM. `grep -c Googlebot LOG` runs once
# a round, its output to a file (to /dev/null GNU grep stops at the first match).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${RUNS:-3}"
work="${WORK:?set WORK to a scratch directory (stores are made and removed there)}"
log="${1:?usage: WORK=DIR $0 LOG [TREE...]}"
shift
trees=("$@")
[ ${#trees[@]} -gt 0 ] || trees=("$here")
case "$runs" in (*[!0-9]*|''|0) echo "RUNS must be a positive number" >&2; exit 2 ;; esac
[ -r "$log" ] || { echo "cannot read $log" >&2; exit 1; }
mkdir -p "$work"
hz="$(getconf CLK_TCK)"

# one import; prints: wall_s peak_rss_kib and the ticks by group at the read phase's end and at exit
measure() {
  local tree="$1" db="$work/import-threads.$$.duckdb"
  rm -rf "$db" "$db".*
  local started ended
  started=$(date +%s%N)
  "$tree/crawl-errors" import --db "$db" --ip-ranges "$tree/bench/ip-ranges" "$log" >"$work/import-threads.out" 2>&1 &
  local pid=$!
  local samples="$work/import-threads.samples"
  : >"$samples"
  while kill -0 "$pid" 2>/dev/null; do
    # tid name ticks, for every thread; then the high-water mark of the resident set
    for stat in /proc/"$pid"/task/*/stat; do cat "$stat" 2>/dev/null || true; done |
      awk '{ n=$0; sub(/^[0-9]+ \(/, "", n); sub(/\) .*/, "", n); gsub(/ /, "_", n);
             s=$0; sub(/.*\) /, "", s); split(s, f, " "); print $1, n, f[12] + f[13] }' >"$samples.now" || true
    echo "sample $(awk '/VmHWM/ { print $2 }' /proc/"$pid"/status 2>/dev/null || echo 0)" >>"$samples"
    cat "$samples.now" >>"$samples"
    sleep 0.1
  done
  wait "$pid" || { echo "the import failed:" >&2; tail -5 "$work/import-threads.out" >&2; exit 1; }
  ended=$(date +%s%N)
  rm -rf "$db" "$db".* "$samples.now"
  awk -v wall="$(( (ended - started) / 1000000 ))" -v hz="$hz" '
    function group(n) {
      if (n == "java") return "main"; if (n == "log-parser") return "parsers"; if (n == "store-writer") return "writer"
      if (n ~ /^C[12]_Compiler/) return "jit"; if (n == "VM_Thread") return "gc"; return "other" }
    function snapshot(into,   t, g) { for (g in G) into[g] = 0; for (t in ticks) into[group(name[t])] += ticks[t] }
    BEGIN { split("main parsers writer jit gc other", order, " "); for (i in order) G[order[i]] = 1 }
    $1 == "sample" {
      if (parsersSeen && !parsersNow && !readEnd) { snapshot(atRead); readEnd = 1 }
      parsersNow = 0; hwm = $2 > hwm ? $2 : hwm; next }
    { ticks[$1] = $3; name[$1] = $2; if ($2 == "log-parser") { parsersSeen = 1; parsersNow = 1 } }
    END {
      snapshot(atEnd); if (!readEnd) snapshot(atRead)
      printf "wall %.2f s, peak RSS %d MiB; CPU s (read phase + close):", wall / 1000, hwm / 1024
      for (i = 1; i <= 6; i++) { g = order[i]; printf " %s %.2f+%.2f", g, atRead[g] / hz, (atEnd[g] - atRead[g]) / hz; all += atEnd[g] }
      printf "; all %.2f\n", all / hz }' "$samples"
  grep -q '^Crawler hits stored' "$work/import-threads.out" || { echo "no hits stored:" >&2; tail -5 "$work/import-threads.out" >&2; exit 1; }
}

head -1000 "$log" >"$work/import-threads.head.log"
for tree in "${trees[@]}"; do
  [ -x "$tree/crawl-errors" ] || { echo "$tree has no crawl-errors launcher" >&2; exit 1; }
  rm -rf "$work/import-threads.train.duckdb"*
  "$tree/crawl-errors" import --db "$work/import-threads.train.duckdb" --ip-ranges "$tree/bench/ip-ranges" \
    "$work/import-threads.head.log" >/dev/null 2>&1 || { echo "$tree: the training import failed" >&2; exit 1; }
  rm -rf "$work/import-threads.train.duckdb"*
done

for ((round = 1; round <= runs; round++)); do
  echo "round $round, load $(cut -d' ' -f1-3 /proc/loadavg):"
  n=${#trees[@]}
  for ((i = 0; i < n; i++)); do
    tree="${trees[$(( (i + round - 1) % n ))]}"
    printf '  %s: %s\n' "$tree" "$(measure "$tree")"
  done
  grep_times="$( { /usr/bin/time -f '%e %U %S' grep -c Googlebot "$log" >"$work/import-threads.grep"; } 2>&1 )"
  read -r gw gu gs <<<"$grep_times"
  printf '  grep -c: wall %s s, CPU %.2f s\n' "$gw" "$(echo "$gu + $gs" | bc)"
done
rm -f "$work/import-threads.head.log" "$work/import-threads.grep" "$work/import-threads.out" "$work/import-threads.samples"
