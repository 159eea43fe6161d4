#!/usr/bin/env bash
# The first in_sitemap= answers after serve starts (issue 32), two builds side by side: jar A serving store A and
# jar B serving store B (two copies of one store holding sitemaps, e.g. sitemap-side.sh's WORK/store.duckdb), started
# at once; once both answer the URLs page, each first request is asked of both at the same moment (in parallel), in
# this order: report ?in_sitemap=yes, URLs page ?in_sitemap=yes, report ?in_sitemap=no, URLs page ?in_sitemap=no, then the
# report's first page without a filter (the warm-up's kept page: what issue 32's 1.2x compares them with).
# Prints each one's time (s) and whether the bodies are the same (kept in OUTDIR), how long after the start both answered, each
# serve's count of report answers found kept, rendered for a reader and rendered ahead, and serve's CPU and peak RSS at the end.
# sitemap-ab.sh asks A's first requests before B's, so B's come after A's have had their time: not a comparison.
#
# Run:  bench/sitemap-first.sh JAR_A STORE_A JAR_B STORE_B OUTDIR   (PORT_A, PORT_B: default 18193, 18194)
set -euo pipefail
# shellcheck source=two-serves.sh
source "$(dirname "${BASH_SOURCE[0]}")/two-serves.sh"
ja=$1; sa=$2; jb=$3; sb=$4; out=$5; pa=${PORT_A:-18193}; pb=${PORT_B:-18194}
two_serves "$ja" "$sa" "$pa" "$jb" "$sb" "$pb" "$out"
echo "both answer /urls $(echo "$(date +%s.%N) - $t0" | bc) s after the start; load $(cut -d' ' -f1-3 /proc/loadavg)"
for k in "/api/crawl-errors?in_sitemap=yes" "/api/crawl-errors/urls?in_sitemap=yes" "/api/crawl-errors?in_sitemap=no" "/api/crawl-errors/urls?in_sitemap=no" \
    "/api/crawl-errors"; do
  curl -s -o "$out/body-A" -w '%{http_code} %{time_total}' "http://127.0.0.1:$pa$k" >"$out/first-A" &
  ca=$!
  curl -s -o "$out/body-B" -w '%{http_code} %{time_total}' "http://127.0.0.1:$pb$k" >"$out/first-B" &
  cb=$!
  wait "$ca" "$cb"
  same=$(cmp -s "$out/body-A" "$out/body-B" && echo same || echo differ)
  cp "$out/body-A" "$out/body-A-${k//[^a-z]/_}"; cp "$out/body-B" "$out/body-B-${k//[^a-z]/_}"
  printf "first %-42s A %s  B %s  (bodies %s)\n" "$k" "$(cat "$out/first-A")" "$(cat "$out/first-B")" "$same"
done
for s in A B; do port=$([ $s = A ] && echo "$pa" || echo "$pb")
  # the report answers found kept (hits), rendered for a reader (misses) and rendered before any reader (ahead)
  echo "$s page cache $(curl -s "http://127.0.0.1:$port/metrics" | awk '/^crawl_errors_page_cache_(hits|misses|ahead)_total/ {sub("crawl_errors_page_cache_", "", $1); sub("_total", "", $1); printf "%s %d  ", $1, $2}')"; done
tck=$(getconf CLK_TCK)
for s in A B; do p=$(cat "$out/$s.pid")
  echo "$s peak RSS $(awk '/VmHWM/ {printf "%.0f MiB", $2/1024}' /proc/$p/status), serve CPU $(awk -v t=$tck '{printf "%.1f s", ($14+$15)/t}' /proc/$p/stat)"; done
for p in "${pids[@]}"; do kill "$p"; done; wait 2>/dev/null || true
echo "wall $(echo "$(date +%s.%N) - $t0" | bc) s; load at end $(cut -d' ' -f1-3 /proc/loadavg)"
