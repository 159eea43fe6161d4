#!/usr/bin/env bash
# The report's pages with in_sitemap= against the same pages without it (issue 32's 1.2x), measured fairly: every page
# kind a reader opens, each asked unfiltered, with in_sitemap=yes and with =no, the three in a rotated order, many samples,
# two builds alternating request by request, on a settled serve and on fresh starts.
#
#   settled: jar A serving STORE_A and jar B serving STORE_B (two copies of one store holding sitemaps, e.g. /tmp/sm10's)
#            started at once; once both have rendered WANT answers ahead (the warm-up's first pages) and their in_sitemap=
#            first pages are counted (or after SETTLE_MAX s), SAMPLES samples of each kind (SLOW_SAMPLES of the patterns
#            and CSV; the Patterns page of a day never asked, a view of its own, too), once both serves are quiet
#            (under 5% of a core over 2 s); each sample asks the three variants in an order rotated by sample, each of A and B in an order
#            alternated by sample. A "fresh" kind asks page 2 + 7 * sample + 1000 * round: a page no reader asked.
#   start:   for each first-page kind, variant and jar (rotated, alternated), a serve of its own started on STORE (serve
#            leaves a store without new logs as it found it: checked with cmp at the end), and its one request asked
#            as soon as /health answers; its time, the time since the launch, and the serve's CPU and peak RSS then.
#            STARTS rounds; KINDS: the kinds asked (default all seven).
#
# Each request's time is curl's time_total (connection to last byte, not curl's own start); the serve's CPU (user+sys,
# clock ticks of /proc/PID/stat) is read before and after each request and summed by kind, variant and jar.
# Prints, per kind and jar, each variant's median and p90 (ms) and the ratios of the in_sitemap= ones to the unfiltered,
# and the CPU per request; the raw lines are kept in OUTDIR/samples.
#
# Run:  bench/sitemap-fair.sh settled JAR_A STORE_A JAR_B STORE_B OUTDIR   (PORT_A, PORT_B: default 18193, 18194;
#                                                                           SAMPLES 30, SLOW_SAMPLES 6, ROUNDS 1)
#       bench/sitemap-fair.sh start JAR_A JAR_B STORE OUTDIR              (PORT_A: default 18193; STARTS 3)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mode=$1; shift
tck=$(getconf CLK_TCK)
day="from=2026-10-30&to=2026-10-31" # one day of the bench month: the CSV of its 404s, some 5 MB
variants=("" "in_sitemap=yes" "in_sitemap=no")

cpu() { awk '{print $14+$15}' "/proc/$1/stat"; }
rss() { awk '/VmHWM/ {printf "%.0f", $2/1024}' "/proc/$1/status"; }
join_query() { # path, page part, variant -> address
  local q="$2"; [ -n "$3" ] && q="${q:+$q&}$3"; echo "$1${q:+?$q}"; }

# one request: prints "time_ms cpu_ticks" of serve PID on PORT asking ADDRESS
ask() { local c0 c1 t; c0=$(cpu "$1")
  t=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' "http://127.0.0.1:$2$3")
  c1=$(cpu "$1")
  [ "${t%% *}" = 200 ] || echo "status ${t%% *} for $3" >&2
  echo "$(echo "${t#* } * 1000" | bc -l | xargs printf '%.2f') $((c1 - c0))"; }

summary() { # samples file
  python3 - "$1" "$tck" <<'EOF'
import sys, statistics
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
tck = int(sys.argv[2])
by = {}
for r in rows:
    kind, variant, jar, ms, ticks = r[0], r[1], r[2], float(r[3]), int(r[4])
    by.setdefault((kind, jar), {}).setdefault(variant, []).append((ms, ticks))
def q(xs, p):
    xs = sorted(xs); return xs[min(len(xs) - 1, int(round(p * (len(xs) - 1))))]
print(f"{'kind':28} {'jar':4} {'n':>3} {'unfiltered p50/p90 ms':>22} {'yes p50/p90':>16} {'no p50/p90':>16} {'yes x p50/p90':>14} {'no x p50/p90':>14} {'CPU ms/req u/y/n':>18}")
for (kind, jar), v in sorted(by.items()):
    u, y, n = v.get('-', []), v.get('yes', []), v.get('no', [])
    if not u: continue
    def st(s): t = [m for m, _ in s]; return (statistics.median(t), q(t, 0.9)) if t else (float('nan'),) * 2
    def c(s): return 1000.0 * sum(k for _, k in s) / tck / max(1, len(s))
    su, sy, sn = st(u), st(y), st(n)
    print(f"{kind:28} {jar:4} {len(u):3d} {su[0]:10.1f} /{su[1]:9.1f} {sy[0]:7.1f} /{sy[1]:7.1f} {sn[0]:7.1f} /{sn[1]:7.1f} "
          f"{sy[0]/su[0]:6.2f}x/{sy[1]/su[1]:5.2f}x {sn[0]/su[0]:6.2f}x/{sn[1]/su[1]:5.2f}x {c(u):6.1f}/{c(y):5.1f}/{c(n):5.1f}")
EOF
}

vname() { [ -z "$1" ] && echo - || echo "${1#in_sitemap=}"; }

if [ "$mode" = settled ]; then
  ja=$1; sa=$2; jb=$3; sb=$4; out=$5; pa=${PORT_A:-18193}; pb=${PORT_B:-18194}
  samples=${SAMPLES:-30}; slow=${SLOW_SAMPLES:-6}; want=${WANT:-6}; rounds=${ROUNDS:-1}
  # shellcheck source=two-serves.sh
  source "$here/bench/two-serves.sh"
  two_serves "$ja" "$sa" "$pa" "$jb" "$sb" "$pb" "$out"
  A=$(cat "$out/A.pid"); B=$(cat "$out/B.pid")
  ahead() { curl -s "http://127.0.0.1:$1/metrics" | awk '/^crawl_errors_page_cache_ahead_total/ {print int($2)}'; }
  for _ in $(seq 1 $((${SETTLE_MAX:-300} * 2))); do
    a=$(ahead "$pa" || true); b=$(ahead "$pb" || true)
    if [ "${a:-0}" -ge "$want" ] && [ "${b:-0}" -ge "$want" ]; then
      # the in_sitemap= pages' counts done: the cube by sitemap counted (the page's own answer says)
      c=$(for p in $pa $pb; do curl -s "http://127.0.0.1:$p/api/crawl-errors?in_sitemap=no&page=999999" | grep -c '"counting":true' || true; done | paste -sd+ | bc)
      [ "$c" = 0 ] && break
    fi
    sleep 0.5
  done
  # and both serves quiet: under 5% of a core over 2 s (their counts of the start done), at most SETTLE_MAX s more
  for _ in $(seq 1 $((${SETTLE_MAX:-300} / 2))); do
    a0=$(cpu "$A"); b0=$(cpu "$B"); sleep 2
    [ $(($(cpu "$A") - a0)) -le $((tck / 10)) ] && [ $(($(cpu "$B") - b0)) -le $((tck / 10)) ] && break
  done
  echo "settled $(echo "$(date +%s.%N) - $t0" | bc) s after the start; load $(cut -d' ' -f1-3 /proc/loadavg)"
  : >"$out/samples"
  for kind in report-json-first report-html-first report-json-fresh report-html-fresh urls-json-first urls-json-fresh \
      urls-html-first patterns-json patterns-json-fresh csv-404-day; do
    n=$samples; case $kind in patterns*|csv*) n=$slow ;; esac
    for round in $(seq 1 "$rounds"); do
      for s in $(seq 0 $((n - 1))); do
        page=$((2 + 7 * s + 1000 * (round - 1)))
        case $kind in
          report-json-first) path=/api/crawl-errors; pq="" ;;
          report-html-first) path=/crawl-errors; pq="" ;;
          report-json-fresh) path=/api/crawl-errors; pq="page=$page" ;;
          report-html-fresh) path=/crawl-errors; pq="page=$page" ;;
          urls-json-first) path=/api/crawl-errors/urls; pq="" ;;
          urls-json-fresh) path=/api/crawl-errors/urls; pq="page=$page" ;;
          urls-html-first) path=/crawl-errors/urls; pq="" ;;
          patterns-json) path=/api/crawl-errors/patterns; pq="" ;;
          patterns-json-fresh) path=/api/crawl-errors/patterns # a view never asked: a day of its own
            pq="from=2026-10-$(printf %02d $((1 + s % 28)))&to=2026-10-$(printf %02d $((2 + s % 28)))" ;;
          csv-404-day) path=/crawl-errors.csv; pq="status=404&$day" ;;
        esac
        for i in 0 1 2; do
          v=${variants[$(((i + s) % 3))]}
          address=$(join_query "$path" "$pq" "$v")
          if [ $(((s + i) % 2)) = 0 ]; then order="A B"; else order="B A"; fi
          for j in $order; do
            if [ "$j" = A ]; then r=$(ask "$A" "$pa" "$address"); else r=$(ask "$B" "$pb" "$address"); fi
            echo "$kind $(vname "$v") $j $r" >>"$out/samples"
          done
        done
      done
    done
  done
  summary "$out/samples"
  for s in A B; do p=$(cat "$out/$s.pid")
    echo "$s peak RSS $(rss "$p") MiB, serve CPU $(awk -v t="$tck" '{printf "%.1f s", ($14+$15)/t}' "/proc/$p/stat")"; done
  echo "wall $(echo "$(date +%s.%N) - $t0" | bc) s; load at end $(cut -d' ' -f1-3 /proc/loadavg)"
elif [ "$mode" = start ]; then
  ja=$1; jb=$2; store=$3; out=$4; port=${PORT_A:-18193}; starts=${STARTS:-3}
  source "$here/bin/find-java"
  java="$(find_java_home)/bin/java"
  mkdir -p "$out"; : >"$out/samples"; : >"$out/starts"; : >"$out/serve.out"
  sum0=$(cksum <"$store")
  pid=
  trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null || true' EXIT
  k=0
  for round in $(seq 1 "$starts"); do
    for kind in ${KINDS:-report-json-first report-html-first report-json-page2 urls-json-first urls-html-first patterns-json csv-404-day}; do
      case $kind in
        report-json-first) path=/api/crawl-errors; pq="" ;;
        report-html-first) path=/crawl-errors; pq="" ;;
        report-json-page2) path=/api/crawl-errors; pq="page=2" ;;
        urls-json-first) path=/api/crawl-errors/urls; pq="" ;;
        urls-html-first) path=/crawl-errors/urls; pq="" ;;
        patterns-json) path=/api/crawl-errors/patterns; pq="" ;;
        csv-404-day) path=/crawl-errors.csv; pq="status=404&$day" ;;
      esac
      for i in 0 1 2; do
        v=${variants[$(((i + round) % 3))]}
        address=$(join_query "$path" "$pq" "$v")
        if [ $(((k + round) % 2)) = 0 ]; then order="A B"; else order="B A"; fi
        k=$((k + 1))
        for j in $order; do
          jar=$([ "$j" = A ] && echo "$ja" || echo "$jb")
          l0=$(date +%s.%N)
          echo "== $kind $(vname "$v") $j, start $k" >>"$out/serve.out" # every start's log kept: a failed request's cause
          "$java" --enable-native-access=ALL-UNNAMED -Xmx512m -jar "$jar" serve --db "$store" --port "$port" \
            --dns-server none --timezone UTC >>"$out/serve.out" 2>&1 &
          pid=$!
          for _ in $(seq 1 1200); do curl -fs -o /dev/null "http://127.0.0.1:$port/health" 2>/dev/null && break; sleep 0.05; done
          r=$(ask "$pid" "$port" "$address")
          since=$(echo "$(date +%s.%N) - $l0" | bc)
          echo "$kind $(vname "$v") $j $r" >>"$out/samples"
          echo "$kind $(vname "$v") $j $r since-launch $since rss $(rss "$pid") cpu-ticks $(cpu "$pid")" >>"$out/starts"
          kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
        done
      done
    done
  done
  summary "$out/samples"
  echo "the same, timed from the serve's launch to the answer's last byte:"
  awk '{printf "%s %s %s %.2f %d\n", $1, $2, $3, $7 * 1000, $11}' "$out/starts" >"$out/since-launch"
  summary "$out/since-launch"
  [ "$(cksum <"$store")" = "$sum0" ] && echo "store unchanged by the serves" || echo "STORE CHANGED by a serve"
  awk '{r[$3] = (r[$3] > $9 ? r[$3] : $9); c[$3] += $11; n[$3]++} END {for (j in r) printf "%s peak RSS max %d MiB, serve CPU at its request %.1f s mean\n", j, r[j], c[j] / n[j] / '"$tck"'}' "$out/starts"
  echo "load at end $(cut -d' ' -f1-3 /proc/loadavg)"
else
  echo "usage: $0 settled JAR_A STORE_A JAR_B STORE_B OUTDIR | start JAR_A JAR_B STORE OUTDIR" >&2; exit 2
fi
