#!/usr/bin/env bash
# Proves build.sh's module build is reproducible: the deployable app.wasm
# built again from scratch (empty Go build cache) is byte for byte the same.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f build/worker/app.wasm ] || ./build.sh >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Same flags as build.sh (keep them in step).
GOCACHE="$tmp/cache" GOOS=js GOARCH=wasm go build -trimpath -ldflags "-s -w -buildid=" -o "$tmp/app.wasm" ./worker
a=$(sha256sum < build/worker/app.wasm)
b=$(sha256sum < "$tmp/app.wasm")
if [ "$a" != "$b" ]; then
  echo "check-reproducible: app.wasm differs between builds" >&2
  exit 1
fi
echo "check-reproducible: app.wasm identical across clean builds (${a%% *})"
