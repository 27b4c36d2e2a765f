#!/usr/bin/env bash
# Runs every test: formatting and vet, unit tests, the e2e suite on hostsim,
# the engine's tests compiled to js/wasm and run under hostsim, short fuzz
# runs, then the e2e suite on workerd (wrangler dev, offline) to prove the
# simulator tells the truth.
#   ./test.sh             everything
#   SKIP_WORKERD=1 ./test.sh   without the workerd pass
set -euo pipefail
cd "$(dirname "$0")"

echo "== gofmt, go mod tidy, go vet"
unformatted=$(gofmt -l $(git ls-files '*.go'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
go mod tidy -diff
go vet ./...
GOOS=js GOARCH=wasm go vet ./worker/... ./service/...
GOOS=js GOARCH=wasm go vet -tags diag ./worker/...

echo "== build"
./build.sh
scripts/check-reproducible.sh
echo "== size: wrangler deploy --dry-run, under the Free plan's 3 MiB gzip"
scripts/check-size.sh

echo "== go test (unit tests, e2e on hostsim, the crash suite e2e/crash: about a minute)"
E2E_SKIP_BUILD=1 go test -count=1 -timeout 15m ./...

echo "== client library: goldens, node --test, tsc, size (the browser test is TestDemoBrowser in e2e)"
scripts/test-client.sh

echo "== engine and service compiled to js/wasm, run under hostsim"
GOOS=js GOARCH=wasm go test -count=1 -timeout 8m -exec "$PWD/build/bin/hostsim run" ./engine/... ./service/...

echo "== fuzz (short budget)"
go test -run '^$' -fuzz '^FuzzSearch$' -fuzztime "${FUZZTIME:-15s}" ./engine
go test -run '^$' -fuzz '^FuzzNormalize$' -fuzztime "${FUZZTIME:-15s}" ./engine/internal/textnorm
for f in FuzzSniff FuzzParseLabel FuzzUnmarshalLabel; do
  go test -run '^$' -fuzz "^$f\$" -fuzztime "${FUZZTIME:-15s}" ./service/classify
done
go test -run '^$' -fuzz '^FuzzDecode$' -fuzztime "${FUZZTIME:-15s}" ./hostsim/visionmodel
go test -run '^$' -fuzz '^FuzzSuggest$' -fuzztime "${FUZZTIME:-15s}" ./engine/reactions

if [ -z "${SKIP_WORKERD:-}" ]; then
  echo "== e2e on workerd"
  scripts/install-tools.sh
  E2E_SKIP_BUILD=1 E2E_TARGET=workerd go test -count=1 -timeout 15m ./e2e/
fi
