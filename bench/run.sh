#!/usr/bin/env bash
# Builds everything the benchmarks need, then runs them (BENCHMARKS.md).
#   bench/run.sh                  all four: overhead, load, startup, search
#   bench/run.sh overhead [flags] per-request CPU and latency (bench/cmd/overhead)
#   bench/run.sh load [flags]     500 concurrent clients on hostsim (bench/cmd/load)
#   bench/run.sh startup [flags]  hostsim start-up with a warm cache (bench/cmd/startup)
#   bench/run.sh search [flags]   /v1/search misses, hits and 200 clients on hostsim (bench/cmd/search)
# Every target listens on 127.0.0.1 only. BENCH_SKIP_BUILD=1 skips the build.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${BENCH_SKIP_BUILD:-}" ]; then
  ./build.sh >&2
  scripts/install-tools.sh >&2
  # The baseline: the same handler on syumai's stock entry and JS glue
  # (worker.mjs imports runtime.mjs, which imports ./app.wasm).
  out=build/bench/stock
  mkdir -p "$out"
  go run github.com/syumai/workers/cmd/workers-assets-gen -mode=go -o "$out" >/dev/null
  GOOS=js GOARCH=wasm go build -trimpath -ldflags "-s -w -buildid=" -o "$out/app.wasm" ./bench/stock
fi

what=${1:-all}
[ $# -gt 0 ] && shift
case "$what" in
  overhead|load|startup|search) go run ./bench/cmd/"$what" "$@" ;;
  all)
    for cmd in overhead load startup search; do
      echo "== $cmd"
      go run ./bench/cmd/"$cmd"
      echo
    done
    ;;
  *) echo "usage: bench/run.sh [overhead|load|startup|search|all] [flags]" >&2; exit 2 ;;
esac
