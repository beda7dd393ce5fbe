#!/usr/bin/env bash
# The Redis Cluster pass: starts three masters from `redis-server` (cluster mode, the compose flags, free local
# ports, temporary data directories), then runs the store, queue, race and crash suites and the built app's
# cluster test against them as an ioredis Cluster (HOLDPOINT_TEST_REDIS_CLUSTER=1). Any CROSSSLOT fails a test.
# Run `npm run build` first (the production test starts dist/src/main.js). The cluster stops when this exits.
set -euo pipefail
cd "$(dirname "$0")/.."

flags="$(node scripts/redis-flags.mjs)"
dir="$(mktemp -d "${TMPDIR:-/tmp}/holdpoint-cluster.XXXXXX")"
ports=()
for _ in 1 2 3; do
  ports+=("$(node -e "const s = require('node:net').createServer(); s.listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); });")")
done
stop_cluster() {
  for port in "${ports[@]}"; do redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || true; done
  rm -rf "$dir"
}
trap stop_cluster EXIT
for port in "${ports[@]}"; do
  mkdir -p "$dir/$port"
  # shellcheck disable=SC2086 # the flags are words on purpose
  redis-server --port "$port" --bind 127.0.0.1 --dir "$dir/$port" --daemonize yes \
    --pidfile "$dir/$port/redis.pid" --logfile "$dir/$port/redis.log" \
    --cluster-enabled yes --cluster-config-file "$dir/$port/nodes.conf" $flags
done
for port in "${ports[@]}"; do
  for _ in $(seq 1 100); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
done
redis-cli --cluster create "${ports[@]/#/127.0.0.1:}" --cluster-replicas 0 --cluster-yes >/dev/null
for _ in $(seq 1 100); do
  redis-cli -p "${ports[0]}" cluster info | grep -q 'cluster_state:ok' && break
  sleep 0.1
done
redis-cli -p "${ports[0]}" cluster info | grep -q 'cluster_state:ok'
echo "test:cluster: 3 masters on ports ${ports[*]} ($flags)"

export REDIS_URL="redis://127.0.0.1:${ports[0]}"
export HOLDPOINT_TEST_REDIS_CLUSTER=1
npx vitest run src/store test/integration/store test/integration/races.test.ts test/integration/api-races.test.ts \
  test/integration/crash-recovery.test.ts test/integration/thread-order.test.ts test/integration/asks/follow-ups.test.ts \
  test/integration/known-turn.test.ts test/integration/asks/index-repair.test.ts \
  test/e2e/production-cluster.test.ts
