# Sourced by the benchmarks that serve two builds side by side (sitemap-ab.sh, sitemap-first.sh): starts
#   java -Xmx512m -jar JAR serve --db STORE --port PORT --dns-server none --timezone UTC
# for A and B at once, their output and pids in OUTDIR (A.serve, A.pid, ...), stopped at the script's exit, and
# returns once both answer the URLs page (or exits when one did not start). Sets $java, $t0 (the start) and pids.
# Usage (after `set -euo pipefail`):  source bench/two-serves.sh; two_serves JAR_A STORE_A PORT_A JAR_B STORE_B PORT_B OUTDIR
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=../bin/find-java
source "$here/bin/find-java"
JH=$(find_java_home); java="$JH/bin/java"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done' EXIT

two_serves() { # jar_a store_a port_a jar_b store_b port_b outdir
  local out=$7 s port
  mkdir -p "$out"
  t0=$(date +%s.%N)
  serve_one "$1" "$2" "$3" A "$out"
  serve_one "$4" "$5" "$6" B "$out"
  sleep 2
  for s in A B; do kill -0 "$(cat "$out/$s.pid")" || { echo "serve $s did not start:"; cat "$out/$s.serve"; exit 1; }; done
  for port in "$3" "$6"; do
    for _ in $(seq 1 600); do curl -fs "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break; sleep 0.2; done
    for _ in $(seq 1 1200); do [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/api/crawl-errors/urls")" = 200 ] && break; sleep 0.2; done
  done
}

serve_one() { # jar store port label outdir
  "$java" --enable-native-access=ALL-UNNAMED -Xmx512m -jar "$1" serve --db "$2" --port "$3" \
    --dns-server none --timezone UTC >"$5/$4.serve" 2>&1 &
  pids+=($!)
  echo $! >"$5/$4.pid"
}
