#!/usr/bin/env bash
# What serve's built-in alerts cost while it follows a busy log, and how soon an alert arrives
# (the issue's targets: CPU with alerts on within 1.05x of off; an alert at a loopback webhook
# within 5 s of its line being written).
#
# Run:  bench/alert-cost.sh [ROUNDS] [RATE]        (default 3 rounds, 10000 lines/s)
#
# Runs dev.crawlerrors.bench.AlertCost, which for each round starts the real `./crawl-errors serve
# --follow LOG` twice (fresh --db in a temp dir, --dns-server none, --ip-ranges bench/ip-ranges,
# --port 0), once with --alerts FILE (100 rules of the four kinds, a webhook on loopback) and once
# without, the order alternating from round to round. Each run: BenchLog's lines appended at RATE
# a second stamped with the time they are written (WARMUP_S=15 s, then MEASURE_S=30 s measured),
# and every 3 s a verified Googlebot's /robots.txt fetch answered 500, then 200. Prints per run the
# server's CPU seconds over the measured part (/proc/PID/stat), its peak RSS (VmHWM) and its follow
# lag at the end; then the per-round CPU ratio on/off and its median, and min, median, p95 and max
# of the time from each probe's write() to its alert (firing, then resolved) reaching the webhook.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds="${1:-3}"
rate="${2:-10000}"
case "$rounds$rate" in (*[!0-9]*|'') echo "usage: $0 [ROUNDS] [RATE]" >&2; exit 2 ;; esac

# shellcheck source=../bin/find-java
source "$here/bin/find-java"
java_home="$(find_java_home)" || { echo "no JDK 21 or newer found; set JAVA_HOME" >&2; exit 1; }
export JAVA_HOME="$java_home"

cd "$here"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/alert-cost.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

./crawl-errors --version >/dev/null   # builds target/crawl-errors.jar when it is missing or stale
mvn -B -q -ntp test-compile >&2

echo "$(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $("$JAVA_HOME/bin/java" -version 2>&1 | head -1); $(git rev-parse --short HEAD)"
# the servers run as children of AlertCost, which stops each at the end of its run
"$JAVA_HOME/bin/java" -Xmx1g -cp "target/test-classes:target/crawl-errors.jar" dev.crawlerrors.bench.AlertCost "$tmp" "$rounds" "$rate" \
  "${WARMUP_S:-15}" "${MEASURE_S:-30}"
