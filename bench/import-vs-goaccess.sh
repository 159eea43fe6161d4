#!/usr/bin/env bash
# Import throughput of crawl-errors against GoAccess, on the same generated log, in the same run.
#
# Run:  bench/import-vs-goaccess.sh [LINES]        (default 5000000, as issue 3 asks; RUNS=3 rounds)
#
# Generates LINES lines with dev.crawlerrors.bench.BenchLog (fixed seed: nginx combined with a
# trailing $request_time, ~10% crawlers), then times, as wall clock of the whole process (JVM start
# included):
#   crawl-errors  ./crawl-errors import --db <fresh db> --ip-ranges bench/ip-ranges --dns-server none LOG
#                 (the launcher, with the start-up cache it trains once per build, before the timing)
#   goaccess      goaccess LOG --log-format=COMBINED --crawlers-only -o /dev/null     (the baseline)
#   grep          grep -c Googlebot LOG                                             (a floor: reading the bytes)
# RUNS rounds, the order rotated each round; prints each run, the medians, lines/s and the ratios
# against GoAccess measured in this run. Absolute figures mean little on a shared machine; the ratios
# are the result. GoAccess accepts the trailing request time under COMBINED (it ignores it; 0 failed
# requests), so its predefined format is used.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
lines="${1:-5000000}"
runs="${RUNS:-3}"
case "$lines" in (*[!0-9]*|'') echo "usage: $0 [LINES]" >&2; exit 2 ;; esac
case "$runs" in (*[!0-9]*|''|0) echo "RUNS must be a positive number" >&2; exit 2 ;; esac

# shellcheck source=../bin/find-java
source "$here/bin/find-java"
java_home="$(find_java_home)" || { echo "no JDK 21 or newer found; set JAVA_HOME" >&2; exit 1; }
java="$java_home/bin/java"
command -v goaccess >/dev/null || { echo "goaccess is not installed (apt-get install goaccess)" >&2; exit 1; }

cd "$here"
jar="target/crawl-errors.jar"
if [ ! -f "$jar" ]; then
  echo "building $jar ..." >&2
  JAVA_HOME="$java_home" mvn -B -q -DskipTests package >&2
fi
JAVA_HOME="$java_home" mvn -B -q test-compile >&2

tmp="$(mktemp -d "${TMPDIR:-/tmp}/import-vs-goaccess.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
log="$tmp/bench.log"

"$java" -cp "target/test-classes:$jar" dev.crawlerrors.bench.BenchLog "$lines" "$log" 2>"$tmp/generator.txt"
cat "$tmp/generator.txt"
cat "$log" >/dev/null   # into the page cache, so the first contestant does not pay for the disk
sync                    # nor for writing the generated log out (round one's import was the slowest run twice)

# through the launcher, as users run it; built and its start-up cache for imports trained here,
# before any timing (an import of an empty log)
: >"$tmp/empty.log"
JAVA_HOME="$java_home" ./crawl-errors import --db "$tmp/warm.duckdb" --ip-ranges bench/ip-ranges --dns-server none \
  "$tmp/empty.log" >/dev/null 2>&1 || true
run_crawl_errors() {
  local db="$tmp/run.duckdb"
  rm -f "$db" "$db.wal"
  JAVA_HOME="$java_home" ./crawl-errors import --db "$db" --ip-ranges bench/ip-ranges --dns-server none "$log" \
    >"$tmp/crawl-errors.out" 2>"$tmp/crawl-errors.err"
}
run_goaccess() {
  goaccess "$log" --log-format=COMBINED --crawlers-only -o /dev/null >"$tmp/goaccess.out" 2>"$tmp/goaccess.err"
}
run_grep() {
  grep -c Googlebot "$log" >"$tmp/grep.out"
}

# seconds of wall clock one contestant takes; its output stays in $tmp/NAME.*
# The log is read into the page cache again, untimed, before each run: these machines' kernel pages
# out what was not touched for a minute (DAMON, up to 128 MiB/s), so after a 70-100 s GoAccess round
# part of the log was back on disk (an import after such a wait read 128-448 MB/s from it: vmstat).
timed() {
  local name="$1" start end
  cat "$log" >/dev/null
  start="$(date +%s.%N)"
  if ! "run_${name//-/_}"; then
    echo "$name failed:" >&2
    cat "$tmp/$name".* >&2 2>/dev/null || true
    exit 1
  fi
  end="$(date +%s.%N)"
  awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", e - s }'
}

median() {
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

names=(crawl-errors goaccess grep)
declare -A times
echo
echo "$lines lines, $(du -m "$log" | cut -f1) MiB; $(nproc) cores; $("$java" -version 2>&1 | head -1); $(goaccess --version | head -1)"
for ((round = 0; round < runs; round++)); do
  for ((k = 0; k < ${#names[@]}; k++)); do
    name="${names[$(((k + round) % ${#names[@]}))]}"
    t="$(timed "$name")"
    times[$name]="${times[$name]:-} $t"
    echo "round $((round + 1)): $name $t s"
  done
done

echo
echo "crawl-errors summary (last run):"
sed 's/^/  /' "$tmp/crawl-errors.out"
echo "grep -c Googlebot: $(cat "$tmp/grep.out")"
echo

# shellcheck disable=SC2086
base="$(median ${times[goaccess]})"
printf '%-13s %-24s %9s %13s %18s\n' "" "runs (s)" "median s" "lines/s" "vs goaccess"
for name in "${names[@]}"; do
  # shellcheck disable=SC2086
  m="$(median ${times[$name]})"
  awk -v name="$name" -v runs="${times[$name]# }" -v m="$m" -v base="$base" -v n="$lines" 'BEGIN {
    printf "%-13s %-24s %9.3f %13.0f %17.2fx\n", name, runs, m, n / m, base / m }'
done
# shellcheck disable=SC2086
awk -v ce="$(median ${times[crawl-errors]})" -v base="$base" 'BEGIN {
  printf "\nratio crawl-errors/goaccess (lines/s): %.2f\n", base / ce }'
