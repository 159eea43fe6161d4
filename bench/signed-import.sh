#!/usr/bin/env bash
# An import of a log in which every line is signed against the same requests unsigned (issue 35).
#
# Run:  bench/signed-import.sh [LINES]        (default 50000; RUNS=3 rounds)
#
# The default stays under SignedHits.MAX_PENDING (100,000 signatures kept waiting): beyond it an
# import checks each further signature on its reader's path, so a bigger log measures that bound.
#
# bench/signatures/signed-log.py (python3-cryptography) writes the same LINES requests twice: signed
# as ChatGPT agent signs (Ed25519, a Chrome agent, each line its own nonce and signature, so none is
# cached), and unsigned with GPTBot's agent (verified by bench/ip-ranges' gptbot.json); both are
# crawler hits of 20.171.207.0/24 and all are stored. Times, as wall clock of the whole process
# through the launcher with its user+system CPU and peak RSS:
#   unsigned  ./crawl-errors import --db <fresh> UNSIGNED.log                          (the baseline)
#   signed    ./crawl-errors import --db <fresh> --signature-directories KEYS SIGNED.log
# alternating which goes first; prints each run, the medians and the ratios to the baseline (and the
# median of the ratios within each round, which a drifting load moves less), and
# the signed import's verdicts: a log of at most 1,000 signed lines is checked at the import's end
# (all verified), a bigger one is left to serve (all pending, "Signatures pending: ..."), as
# docs/verification.md says. Issue 35 asks: within 1.2x.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${RUNS:-3}"
lines="${1:-50000}"
case "$lines" in (*[!0-9]*|'') echo "usage: $0 [LINES]" >&2; exit 2 ;; esac
case "$runs" in (*[!0-9]*|''|0) echo "RUNS must be a positive number" >&2; exit 2 ;; esac

# shellcheck source=../bin/find-java
source "$here/bin/find-java"
java_home="$(find_java_home)" || { echo "no JDK 21 or newer found; set JAVA_HOME" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "GNU time is needed for the peak RSS (apt-get install time)" >&2; exit 1; }
python3 -c 'import cryptography' 2>/dev/null || { echo "python3-cryptography is needed to sign the log" >&2; exit 1; }

cd "$here"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/signed-import.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
format='nginx:$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" "$host" "$http_signature_agent" "$http_signature_input" "$http_signature"'

python3 bench/signatures/signed-log.py "$lines" "$tmp/signed.log" "$tmp/unsigned.log" "$tmp/keys"
: >"$tmp/empty.log"
JAVA_HOME="$java_home" ./crawl-errors import --db "$tmp/warm.duckdb" --ip-ranges bench/ip-ranges --dns-server none \
  "$tmp/empty.log" >/dev/null 2>&1 || true

# one import: NAME ARGS...; prints "seconds peak-KiB cpu-seconds"; its summary stays in $tmp/NAME.out
timed_import() {
  local name="$1" start end
  shift
  rm -f "$tmp/$name.duckdb" "$tmp/$name.duckdb.wal"
  start="$(date +%s.%N)"
  if ! JAVA_HOME="$java_home" /usr/bin/time -f "%M %U %S" -o "$tmp/$name.rss" ./crawl-errors import --db "$tmp/$name.duckdb" \
      --ip-ranges bench/ip-ranges --dns-server none --format "$format" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"; then
    echo "$name failed:" >&2
    cat "$tmp/$name.out" "$tmp/$name.err" >&2
    exit 1
  fi
  end="$(date +%s.%N)"
  tail -1 "$tmp/$name.rss" | awk -v s="$start" -v e="$end" '{ printf "%.3f %d %.2f", e - s, $1, $2 + $3 }'
}

median() {
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "$(nproc) cores; $("$java_home/bin/java" -version 2>&1 | head -1); load $(cut -d' ' -f1-3 /proc/loadavg); $lines lines"
declare -A secs=() rss=() cpu=()
for ((round = 0; round < runs; round++)); do
  cat "$tmp/signed.log" "$tmp/unsigned.log" >/dev/null   # into the page cache, untimed
  for k in 0 1; do
    if [ $(((k + round) % 2)) -eq 0 ]; then
      read -r t m c <<<"$(timed_import unsigned "$tmp/unsigned.log")"
      secs[unsigned]+=" $t"; rss[unsigned]+=" $m"; cpu[unsigned]+=" $c"
      echo "round $((round + 1)): unsigned  $t s, CPU $c s, $((m / 1024)) MiB"
    else
      read -r t m c <<<"$(timed_import signed --signature-directories "$tmp/keys" "$tmp/signed.log")"
      secs[signed]+=" $t"; rss[signed]+=" $m"; cpu[signed]+=" $c"
      echo "round $((round + 1)): signed    $t s, CPU $c s, $((m / 1024)) MiB"
    fi
  done
done
echo
grep -E '^(Read|Crawler hits|Verdicts)' "$tmp/unsigned.out" | sed 's/^/  unsigned: /'
grep -E '^(Read|Crawler hits|Verdicts|Signatures|key directory)' "$tmp/signed.out" | sed 's/^/  signed:   /'
echo
# shellcheck disable=SC2086
base_s="$(median ${secs[unsigned]})"; base_m="$(median ${rss[unsigned]})"; base_c="$(median ${cpu[unsigned]})"
printf '%-12s %9s %9s %9s %9s %10s %9s\n' "" "median s" "vs unsig" "CPU s" "vs unsig" "peak MiB" "vs unsig"
for name in unsigned signed; do
  # shellcheck disable=SC2086
  s="$(median ${secs[$name]})"; m="$(median ${rss[$name]})"; c="$(median ${cpu[$name]})"
  awk -v l="$name" -v s="$s" -v m="$m" -v c="$c" -v bs="$base_s" -v bm="$base_m" -v bc="$base_c" 'BEGIN {
    printf "%-12s %9.3f %8.2fx %9.2f %8.2fx %10.0f %8.2fx\n", l, s, s / bs, c, c / bc, m / 1024, m / bm }'
done
# The same ratios taken within each round (its two imports run back to back) and their median: a
# machine whose load drifts between rounds moves both imports of a round, and not their ratio.
read -r -a us <<<"${secs[unsigned]}"; read -r -a ss <<<"${secs[signed]}"
read -r -a uc <<<"${cpu[unsigned]}"; read -r -a sc <<<"${cpu[signed]}"
wall_ratios=() cpu_ratios=()
for ((i = 0; i < runs; i++)); do
  wall_ratios+=("$(awk -v a="${ss[i]}" -v b="${us[i]}" 'BEGIN { printf "%.4f", a / b }')")
  cpu_ratios+=("$(awk -v a="${sc[i]}" -v b="${uc[i]}" 'BEGIN { printf "%.4f", a / b }')")
done
awk -v w="$(median "${wall_ratios[@]}")" -v c="$(median "${cpu_ratios[@]}")" -v r="$runs" 'BEGIN {
  printf "signed/unsigned within each round, median of %d: %.2fx wall, %.2fx CPU\n", r, w, c }'
