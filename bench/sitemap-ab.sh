#!/usr/bin/env bash
# Two builds side by side on the sitemap side's pages (issue 32): jar A serving store A and jar B serving store B
# (two copies of one store holding sitemaps, e.g. sitemap-side.sh's WORK/store.duckdb), both at once; each round
# asks page i + 1 (a page never asked before) of each kind of A, then of B, so the two share the machine's moods.
# Prints each one's first in_sitemap= answers after the start, each kind's p50 and p99 over REQUESTS rounds (default
# 50, once the default view's rows are held), the totals and a digest of the rows of both (the same answers), and
# serve's peak RSS and CPU.
#
# Run:  bench/sitemap-ab.sh JAR_A STORE_A JAR_B STORE_B OUTDIR   (PORT_A, PORT_B: default 18193, 18194)
set -euo pipefail
# shellcheck source=two-serves.sh
source "$(dirname "${BASH_SOURCE[0]}")/two-serves.sh"
ja=$1; sa=$2; jb=$3; sb=$4; out=$5; requests=${REQUESTS:-50}; pa=${PORT_A:-18193}; pb=${PORT_B:-18194}
two_serves "$ja" "$sa" "$pa" "$jb" "$sb" "$pb" "$out"
echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
# the first in_sitemap= request of each after start (report and URLs page), timed
for port in "$pa" "$pb"; do
  for k in "/api/crawl-errors?in_sitemap=yes" "/api/crawl-errors/urls?in_sitemap=yes"; do
    echo "first $k on $port: $(curl -s -o /dev/null -w '%{http_code} %{time_total}' "http://127.0.0.1:$port$k")"
  done
done
for port in "$pa" "$pb"; do
  for _ in $(seq 1 1800); do
    held=$(curl -s "http://127.0.0.1:$port/metrics" | awk '/^crawl_errors_default_rows_bytes/ {printf "%d", $2}')
    [ "${held:-0}" -gt 0 ] && break; sleep 0.5
  done
  echo "held rows on $port: $held"
done
kinds=("/api/crawl-errors" "/api/crawl-errors?in_sitemap=yes" "/api/crawl-errors?in_sitemap=no"
       "/api/crawl-errors/urls" "/api/crawl-errors/urls?in_sitemap=yes" "/api/crawl-errors/urls?in_sitemap=no")
for s in A B; do for k in "${kinds[@]}"; do : >"$out/t-$s-${k//[^a-z]/_}"; done; done
for i in $(seq 1 "$requests"); do
  for k in "${kinds[@]}"; do
    case "$k" in (*\?*) u="$k&page=$((i + 1))" ;; (*) u="$k?page=$((i + 1))" ;; esac
    curl -s -o /dev/null -w '%{http_code} %{time_total}\n' "http://127.0.0.1:$pa$u" >>"$out/t-A-${k//[^a-z]/_}"
    curl -s -o /dev/null -w '%{http_code} %{time_total}\n' "http://127.0.0.1:$pb$u" >>"$out/t-B-${k//[^a-z]/_}"
  done
done
for s in A B; do
  for k in "${kinds[@]}"; do
    f="$out/t-$s-${k//[^a-z]/_}"
    bad=$(awk '$1 != 200' "$f" | wc -l)
    read -r p50 p99 < <(awk '{print $2 * 1000}' "$f" | sort -n | awk '{t[NR] = $1} END {print t[int(NR * 0.5 + 0.5)], t[int(NR * 0.99 + 0.5)]}')
    printf "%s %-42s p50 %7.1f ms  p99 %7.1f ms  (%d not 200)\n" "$s" "$k" "$p50" "$p99" "$bad"
  done
done
for s in A B; do
  c="http://127.0.0.1:$([ $s = A ] && echo "$pa" || echo "$pb")"
  for k in "/api/crawl-errors/urls?in_sitemap=yes" "/api/crawl-errors/urls?in_sitemap=no" "/api/crawl-errors/urls?in_sitemap=yes&page=37"; do
    echo "$s $k: $(curl -s "$c$k" | python3 -c 'import json,sys,hashlib; d=json.load(sys.stdin); print(d["total"], hashlib.md5(json.dumps([r["url"] for r in d["rows"]]).encode()).hexdigest())')"
  done
done
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
tck=$(getconf CLK_TCK)
for s in A B; do p=$(cat "$out/$s.pid")
  echo "$s peak RSS $(awk '/VmHWM/ {printf "%.0f MiB", $2/1024}' /proc/$p/status), serve CPU $(awk -v t=$tck '{printf "%.1f s", ($14+$15)/t}' /proc/$p/stat)"; done
for p in "${pids[@]}"; do kill "$p"; done; wait 2>/dev/null || true
echo "wall $(echo "$(date +%s.%N) - $t0" | bc) s"
