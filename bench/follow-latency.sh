#!/usr/bin/env bash
# How long a line appended to a followed log takes to reach the report (the issue's bound: 1 s).
#
# Run:  bench/follow-latency.sh [LINES]        (default 50)
#
# Starts the real `./crawl-errors serve --follow LOG` (fresh --db in a temp dir, --dns-server none,
# --ip-ranges bench/ip-ranges, --port 0: a free port, read from its output), then runs
# dev.crawlerrors.bench.FollowLatency, which appends LINES verified-Googlebot 404 lines to LOG, one
# write() each at random intervals (20-500 ms, fixed seed), and for each measures the time from
# write() to GET /api/crawl-errors counting it, asking every 10 ms. Prints each latency, then min,
# median, p95 and max, and the floor of the measurement (one API request). The server is stopped at
# the end and its output shown.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
lines="${1:-50}"
case "$lines" in (*[!0-9]*|''|0) echo "usage: $0 [LINES]" >&2; exit 2 ;; esac

# shellcheck source=../bin/find-java
source "$here/bin/find-java"
java_home="$(find_java_home)" || { echo "no JDK 21 or newer found; set JAVA_HOME" >&2; exit 1; }
export JAVA_HOME="$java_home"

cd "$here"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/follow-latency.XXXXXX")"
server=""
stop() {
  if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then
    kill "$server" && wait "$server" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap stop EXIT

./crawl-errors --version >/dev/null   # builds target/crawl-errors.jar when it is missing or stale
mvn -B -q -ntp test-compile >&2

log="$tmp/access.log"
./crawl-errors serve --follow "$log" --db "$tmp/hits.duckdb" --dns-server none --ip-ranges bench/ip-ranges \
  --port 0 --timezone UTC >"$tmp/serve.out" 2>&1 &
server=$!   # the launcher execs java: this is the server's own pid

base=""
for _ in $(seq 600); do
  base="$(grep -o 'http://[^ ]*/crawl-errors' "$tmp/serve.out" | head -1 | sed 's|/crawl-errors$||' || true)"
  [ -n "$base" ] && break
  kill -0 "$server" 2>/dev/null || { echo "serve stopped:" >&2; cat "$tmp/serve.out" >&2; exit 1; }
  sleep 0.1
done
[ -n "$base" ] || { echo "serve did not start within 60 s:" >&2; cat "$tmp/serve.out" >&2; exit 1; }

echo "$(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $("$JAVA_HOME/bin/java" -version 2>&1 | head -1); serve at $base"
"$JAVA_HOME/bin/java" -cp "target/test-classes:target/crawl-errors.jar" dev.crawlerrors.bench.FollowLatency "$log" "$base" "$lines"

kill "$server" && wait "$server" 2>/dev/null || true
server=""
echo
echo "serve's output:"
sed 's/^/  /' "$tmp/serve.out"
