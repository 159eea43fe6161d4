#!/usr/bin/env bash
# Many small logs against the same lines in one file, in the same run (issue 21).
#
# Run:  bench/many-files.sh [FILES...]        (default: 5000 50000; 20 lines a file; RUNS=3 rounds)
#
# For each FILES, generates with dev.crawlerrors.bench.ManyLogs FILES gzipped logs of 20 lines
# (BenchLog's lines, CloudFront-like names) and the same lines in one plain file, then times, as wall
# clock of the whole process through the launcher (JVM start included), with its peak RSS:
#   one file     ./crawl-errors import --db <fresh> ONE.log                      (the baseline)
#   directory    ./crawl-errors import --db <fresh> DIR/
#   re-run       ./crawl-errors import --db <the directory's> DIR/               (nothing changed)
#   one new      the same with one more file of 20 new lines in DIR
# RUNS rounds, the one file and the directory alternating first; prints each run, the medians, and
# the ratios to the one file measured in this run (import time and peak RSS), and checks that the
# directory's import counted exactly what the one file's did (lines, parsed, crawler hits, error
# hits, verdicts). Issue 21 asks: import within 1.5x, peak RSS within 1.25x, re-runs under 1.5 s.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${RUNS:-3}"
per_file=20
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(5000 50000)
for n in "${sizes[@]}"; do case "$n" in (*[!0-9]*|'') echo "usage: $0 [FILES...]" >&2; exit 2 ;; esac; done
case "$runs" in (*[!0-9]*|''|0) echo "RUNS must be a positive number" >&2; exit 2 ;; esac

# shellcheck source=../bin/find-java
source "$here/bin/find-java"
java_home="$(find_java_home)" || { echo "no JDK 21 or newer found; set JAVA_HOME" >&2; exit 1; }
java="$java_home/bin/java"
[ -x /usr/bin/time ] || { echo "GNU time is needed for the peak RSS (apt-get install time)" >&2; exit 1; }

cd "$here"
jar="target/crawl-errors.jar"
if [ ! -f "$jar" ]; then
  echo "building $jar ..." >&2
  JAVA_HOME="$java_home" mvn -B -q -DskipTests package >&2
fi
JAVA_HOME="$java_home" mvn -B -q test-compile >&2

tmp="$(mktemp -d "${TMPDIR:-/tmp}/many-files.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

# the launcher builds the jar and trains its start-up cache before any timing (an import of an empty log)
: >"$tmp/empty.log"
JAVA_HOME="$java_home" ./crawl-errors import --db "$tmp/warm.duckdb" --ip-ranges bench/ip-ranges --dns-server none \
  "$tmp/empty.log" >/dev/null 2>&1 || true

# one import: NAME DB ARGS...; prints "seconds peak-KiB"; its summary stays in $tmp/NAME.out
timed_import() {
  local name="$1" db="$2" start end
  shift 2
  start="$(date +%s.%N)"
  if ! JAVA_HOME="$java_home" /usr/bin/time -f "%M" -o "$tmp/$name.rss" ./crawl-errors import --db "$db" \
      --ip-ranges bench/ip-ranges --dns-server none "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"; then
    echo "$name failed:" >&2
    cat "$tmp/$name.out" "$tmp/$name.err" >&2
    exit 1
  fi
  end="$(date +%s.%N)"
  awk -v s="$start" -v e="$end" -v rss="$(tail -1 "$tmp/$name.rss")" 'BEGIN { printf "%.3f %d", e - s, rss }'
}

median() {
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# what an import counted: its first two lines and its verdicts, without the time and rate
counted() {
  sed -n -e '1s/ in [0-9.]* s ([0-9,]* lines\/s)//p' -e '2p' -e '/^Verdicts:/p' "$1"
}

echo
echo "$(nproc) cores; $("$java" -version 2>&1 | head -1); load $(cut -d' ' -f1-3 /proc/loadavg)"
for files in "${sizes[@]}"; do
  dir="$tmp/logs-$files"
  one="$tmp/one-$files.log"
  "$java" -cp "target/test-classes:$jar" dev.crawlerrors.bench.ManyLogs "$files" "$per_file" "$dir" "$one" 2>"$tmp/generator.txt"
  cat "$tmp/generator.txt"
  "$java" -cp "target/test-classes:$jar" dev.crawlerrors.bench.BenchLog "$per_file" "$tmp/new.log" 7 2>/dev/null
  gzip -n "$tmp/new.log"
  declare -A secs=() rss=()
  for ((round = 0; round < runs; round++)); do
    cat "$one" >/dev/null; find "$dir" -type f -exec cat {} + >/dev/null   # into the page cache, untimed
    for k in 0 1; do
      if [ $(((k + round) % 2)) -eq 0 ]; then
        rm -f "$tmp/one.duckdb" "$tmp/one.duckdb.wal"
        read -r t m <<<"$(timed_import one "$tmp/one.duckdb" "$one")"
        secs[one]+=" $t"; rss[one]+=" $m"; echo "round $((round + 1)): one file    $t s, $((m / 1024)) MiB"
      else
        rm -f "$tmp/dir.duckdb" "$tmp/dir.duckdb.wal" "$dir/E2BENCH.9999-new.gz"
        read -r t m <<<"$(timed_import dir "$tmp/dir.duckdb" "$dir/")"
        secs[dir]+=" $t"; rss[dir]+=" $m"; echo "round $((round + 1)): directory   $t s, $((m / 1024)) MiB"
      fi
    done
    read -r t m <<<"$(timed_import rerun "$tmp/dir.duckdb" "$dir/")"
    secs[rerun]+=" $t"; rss[rerun]+=" $m"; echo "round $((round + 1)): re-run      $t s, $((m / 1024)) MiB"
    cp "$tmp/new.log.gz" "$dir/E2BENCH.9999-new.gz"
    read -r t m <<<"$(timed_import newfile "$tmp/dir.duckdb" "$dir/")"
    secs[newfile]+=" $t"; rss[newfile]+=" $m"; echo "round $((round + 1)): one new     $t s, $((m / 1024)) MiB"
    rm -f "$dir/E2BENCH.9999-new.gz"
  done

  echo
  if diff <(counted "$tmp/one.out") <(counted "$tmp/dir.out") >"$tmp/diff.txt"; then
    echo "counts: the directory's import counted exactly what the one file's did:"
    counted "$tmp/one.out" | sed 's/^/  /'
  else
    echo "counts DIFFER between the one file and the directory:"
    cat "$tmp/diff.txt"
  fi
  echo "directory summary (last run):"
  sed -n '/^Logs/,$p' "$tmp/dir.out" | sed 's/^/  /'
  grep '^Logs' "$tmp/rerun.out" | sed 's/^/  re-run: /'
  sed -n '/^Logs/,/^Store/p' "$tmp/newfile.out" | sed 's/^/  one new: /'
  echo
  # shellcheck disable=SC2086
  base_s="$(median ${secs[one]})"; base_m="$(median ${rss[one]})"
  printf '%-30s %9s %9s %10s %9s\n' "$files files of $per_file lines" "median s" "vs one" "peak MiB" "vs one"
  for name in one dir rerun newfile; do
    label=$(case $name in (one) echo "one file";; (dir) echo "directory";; (rerun) echo "re-run, nothing changed";; (newfile) echo "re-run, one new file";; esac)
    # shellcheck disable=SC2086
    s="$(median ${secs[$name]})"; m="$(median ${rss[$name]})"
    awk -v l="$label" -v s="$s" -v m="$m" -v bs="$base_s" -v bm="$base_m" 'BEGIN {
      printf "%-30s %9.3f %8.2fx %10.0f %8.2fx\n", l, s, s / bs, m / 1024, m / bm }'
  done
  echo
  rm -rf "$dir" "$one" "$tmp/new.log.gz"
  unset secs rss
done
