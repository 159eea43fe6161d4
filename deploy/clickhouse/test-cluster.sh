#!/usr/bin/env bash
# A two-shard ClickHouse cluster on 127.0.0.1 for tests and benchmarks: two clickhouse-server
# processes of Debian's package (18.16), each with its own config, data directory and ports, as
# the current user, no ZooKeeper, no systemd, nothing outside DIR.
#
#   test-cluster.sh start DIR [BASE_PORT]   shard N listens on BASE_PORT + 10*(N-1): +0 HTTP, +1 TCP,
#                                           +2 interserver (BASE_PORT default 18123)
#   test-cluster.sh stop DIR [--purge]      SIGTERM both, wait, SIGKILL after CH_STOP_TIMEOUT; --purge deletes DIR
#   CH_SHARDS=1 test-cluster.sh start ...   one plain server instead: no cluster, no macros
#
# The cluster is named crawl_errors (remote_servers); each server's macros name its shard and the
# port of its HTTP interface (http_port), which crawl-errors sends each shard's DDL and inserts to.
# Env: CH_PASSWORD        password of the users default and reader (SHA-256 in users.xml, in plain
#                         text in remote_servers, which the Distributed engine logs in to shards with)
#      CH_MAX_MEMORY_USAGE per query, bytes (default 2000000000; all queries of a server: twice that)
#      CH_BIN (default /usr/sbin/clickhouse-server), CH_START_TIMEOUT (s, 60), CH_STOP_TIMEOUT (s, 30)
#      CH_WATCH_PID       a process (the test JVM) whose end stops the cluster, should nobody else
# Starting a running cluster is harmless: a shard already running is left as it is.
set -euo pipefail

cmd=${1:?usage: test-cluster.sh start|stop DIR [BASE_PORT|--purge]}
DIR=${2:?usage: test-cluster.sh start|stop DIR [BASE_PORT|--purge]}
SHARDS=${CH_SHARDS:-2}

# a live, non-zombie process (a killed daemon may stay a zombie where nothing reaps orphans)
alive() { local st; st=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) && [ -n "$st" ] && [ "$st" != Z ]; }

stop() {
  local timeout=${CH_STOP_TIMEOUT:-30} rc=0 pids=() pid d
  for d in "$DIR"/shard*; do
    [ -d "$d" ] || continue
    pid=$(cat "$d/server.pid" 2>/dev/null || true)
    [ -n "$pid" ] || continue
    # only a clickhouse-server is signalled: after a crash the pid file is stale and its pid may be reused
    if alive "$pid" && grep -q clickhouse "/proc/$pid/cmdline" 2>/dev/null; then
      kill -TERM "$pid" && pids+=("$pid")
    fi
    rm -f "$d/server.pid"
  done
  for pid in "${pids[@]}"; do
    for _ in $(seq $((timeout * 10))); do alive "$pid" || break; sleep 0.1; done
    if alive "$pid"; then
      echo "test-cluster: pid $pid still running after ${timeout}s, SIGKILL" >&2
      kill -KILL "$pid" 2>/dev/null; rc=1
    fi
  done
  return $rc
}

if [ "$cmd" = stop ]; then
  [ -d "$DIR" ] || exit 0
  DIR=$(cd "$DIR" && pwd)
  rc=0; stop || rc=$?
  if [ -s "$DIR/watch.pid" ]; then kill "$(cat "$DIR/watch.pid")" 2>/dev/null || true; rm -f "$DIR/watch.pid"; fi
  [ "${3:-}" = --purge ] && rm -rf "$DIR"
  exit $rc
fi
[ "$cmd" = start ] || { echo "test-cluster: unknown command '$cmd' (start or stop)" >&2; exit 2; }

BASE=${3:-18123}
CH_BIN=${CH_BIN:-/usr/sbin/clickhouse-server}
TIMEOUT=${CH_START_TIMEOUT:-60}
PASSWORD=${CH_PASSWORD:-}
MAXMEM=${CH_MAX_MEMORY_USAGE:-2000000000}
[ -x "$CH_BIN" ] || { echo "test-cluster: $CH_BIN not found; install it with: apt-get install clickhouse-server" >&2; exit 1; }
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)

http() { echo $((BASE + 10 * ($1 - 1))); }
tcp() { echo $((BASE + 10 * ($1 - 1) + 1)); }
inter() { echo $((BASE + 10 * ($1 - 1) + 2)); }
xml_escape() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g'; }

replica_login() { # what the Distributed engine logs in to a shard with
  [ -n "$PASSWORD" ] && printf '<user>default</user><password>%s</password>' "$(printf %s "$PASSWORD" | xml_escape)"
  return 0
}

user_password() { # users.xml: an empty password, or its SHA-256 (no plain text there)
  if [ -z "$PASSWORD" ]; then printf '<password></password>'
  else printf '<password_sha256_hex>%s</password_sha256_hex>' "$(printf %s "$PASSWORD" | sha256sum | cut -d' ' -f1)"; fi
}

cluster_config() { # shard shards-xml: a plain server (CH_SHARDS=1) has none
  [ "$SHARDS" -gt 1 ] || return 0
  cat <<XML
    <remote_servers>
        <crawl_errors>$2
        </crawl_errors>
    </remote_servers>
    <macros>
        <cluster>crawl_errors</cluster>
        <shard>$1</shard>
        <replica>127.0.0.1:$(tcp "$1")</replica>
        <http_port>$(http "$1")</http_port>
    </macros>
XML
}

write_configs() { # shard
  local n=$1 d="$DIR/shard$1" shards="" s
  mkdir -p "$d/data/tmp" "$d/data/user_files" "$d/data/format_schemas" "$d/log"
  for s in $(seq 1 $SHARDS); do
    shards+="
            <shard>
                <internal_replication>false</internal_replication>
                <replica><host>127.0.0.1</host><port>$(tcp "$s")</port>$(replica_login)</replica>
            </shard>"
  done
  cat > "$d/config.xml" <<XML
<?xml version="1.0"?>
<yandex>
    <logger>
        <level>information</level>
        <log>$d/log/clickhouse-server.log</log>
        <errorlog>$d/log/clickhouse-server.err.log</errorlog>
        <size>20M</size>
        <count>2</count>
    </logger>
    <listen_host>127.0.0.1</listen_host>
    <http_port>$(http "$n")</http_port>
    <tcp_port>$(tcp "$n")</tcp_port>
    <interserver_http_port>$(inter "$n")</interserver_http_port>
    <interserver_http_host>127.0.0.1</interserver_http_host>
    <max_connections>256</max_connections>
    <keep_alive_timeout>10</keep_alive_timeout>
    <max_concurrent_queries>100</max_concurrent_queries>
    <uncompressed_cache_size>67108864</uncompressed_cache_size>
    <mark_cache_size>67108864</mark_cache_size>
    <path>$d/data/</path>
    <tmp_path>$d/data/tmp/</tmp_path>
    <user_files_path>$d/data/user_files/</user_files_path>
    <format_schema_path>$d/data/format_schemas/</format_schema_path>
    <users_config>users.xml</users_config>
    <default_profile>default</default_profile>
    <default_database>default</default_database>
    <timezone>UTC</timezone>
    <umask>022</umask>
    <mlock_executable>false</mlock_executable>
    <max_session_timeout>3600</max_session_timeout>
    <default_session_timeout>60</default_session_timeout>
    <max_table_size_to_drop>0</max_table_size_to_drop>
    <max_partition_size_to_drop>0</max_partition_size_to_drop>
$(cluster_config "$n" "$shards")
</yandex>
XML
  cat > "$d/users.xml" <<XML
<?xml version="1.0"?>
<yandex>
    <profiles>
        <default>
            <max_memory_usage>$MAXMEM</max_memory_usage>
            <max_memory_usage_for_all_queries>$((MAXMEM * 2))</max_memory_usage_for_all_queries>
            <max_threads>2</max_threads>
            <use_uncompressed_cache>0</use_uncompressed_cache>
            <load_balancing>in_order</load_balancing>
            <log_queries>0</log_queries>
        </default>
        <readonly>
            <readonly>2</readonly>
        </readonly>
    </profiles>
    <users>
        <default>
            $(user_password)
            <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
            <profile>default</profile>
            <quota>default</quota>
        </default>
        <reader>
            $(user_password)
            <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
            <profile>readonly</profile>
            <quota>default</quota>
        </reader>
    </users>
    <quotas>
        <default>
            <interval>
                <duration>3600</duration>
                <queries>0</queries><errors>0</errors><result_rows>0</result_rows>
                <read_rows>0</read_rows><execution_time>0</execution_time>
            </interval>
        </default>
    </quotas>
</yandex>
XML
}

start_one() { # shard
  local d="$DIR/shard$1"
  if [ -s "$d/server.pid" ] && alive "$(cat "$d/server.pid")"; then
    echo "test-cluster: shard $1 already running (pid $(cat "$d/server.pid"))" >&2; return 0
  fi
  rm -f "$d/server.pid"
  # --daemon: the server forks, detaches and writes its pid to --pid-file (honoured only in daemon
  # mode), removing it on a clean exit. The launcher returns 0 even when the server then fails
  # (a port in use, a bad config): wait_one polls.
  "$CH_BIN" --daemon --config-file="$d/config.xml" --pid-file="$d/server.pid" \
      </dev/null >>"$d/log/stdout.log" 2>>"$d/log/stderr.log"
}

fail_one() { # shard message
  echo "test-cluster: shard $1 $2; see $DIR/shard$1/log/" >&2
  tail -n 5 "$DIR/shard$1/log/clickhouse-server.err.log" >&2 2>/dev/null || true
}

wait_one() { # shard
  local d="$DIR/shard$1" url="http://127.0.0.1:$(http "$1")/" start=$SECONDS seen_pid=0 pid auth=()
  [ -n "$PASSWORD" ] && auth=(-u "default:$PASSWORD")
  until [ "$(curl -s --max-time 2 "${auth[@]}" --data-binary 'SELECT 1' "$url" 2>/dev/null)" = 1 ]; do
    pid=$(cat "$d/server.pid" 2>/dev/null || true)
    if [ -n "$pid" ]; then
      seen_pid=1
      alive "$pid" || { fail_one "$1" "exited while starting"; return 1; }
    elif [ $seen_pid = 1 ] || [ $((SECONDS - start)) -ge 10 ]; then
      fail_one "$1" "exited while starting"; return 1
    fi
    if [ $((SECONDS - start)) -ge "$TIMEOUT" ]; then
      fail_one "$1" "not answering on $url after ${TIMEOUT}s"; return 1
    fi
    sleep 0.1
  done
}

t0=$(date +%s%N)
for s in $(seq 1 $SHARDS); do write_configs "$s"; done
for s in $(seq 1 $SHARDS); do start_one "$s"; done
ok=1
for s in $(seq 1 $SHARDS); do wait_one "$s" || { ok=0; break; }; done
if [ $ok = 0 ]; then stop >/dev/null 2>&1 || true; exit 1; fi   # leave nothing half-started

if [ -n "${CH_WATCH_PID:-}" ] && [ ! -s "$DIR/watch.pid" ]; then
  # stops the cluster when the process that wanted it ends without stopping it (a killed test JVM)
  nohup setsid bash -c 'while kill -0 "$1" 2>/dev/null; do sleep 2; done; "$2" stop "$3"' _ \
      "$CH_WATCH_PID" "$(cd "$(dirname "$0")" && pwd)/$(basename "$0")" "$DIR" </dev/null >/dev/null 2>&1 &
  echo $! > "$DIR/watch.pid"
fi
t1=$(date +%s%N)
printf 'test-cluster: ' >&1
for s in $(seq 1 $SHARDS); do printf 'shard%s http://127.0.0.1:%s (pid %s) ' "$s" "$(http "$s")" "$(cat "$DIR/shard$s/server.pid")"; done
printf 'ready in %d ms\n' $(( (t1 - t0) / 1000000 ))
