#!/usr/bin/env bash
# Builds everything the service needs into build/, reproducibly (-trimpath,
# no build id, the Go toolchain pinned in go.mod):
#   build/worker/        the module wrangler deploys: worker.mjs, wasm_exec.js, app.wasm
#   build/worker-diag/   the same module with the test-only diagnostics routes (tag diag)
#   build/assets/        static assets served before the Worker (the dashboard
#                        web app under build/assets/dashboard/)
#   build/bin/hostsim    the local simulator
set -euo pipefail
cd "$(dirname "$0")"

out=build
# scripts/check-reproducible.sh rebuilds app.wasm with these same flags.
flags=(-trimpath -ldflags "-s -w -buildid=")
mkdir -p "$out/worker" "$out/worker-diag" "$out/assets" "$out/bin"

# syumai's wasm_exec.js (Go's, plus the `context` global) from the pinned module.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go run github.com/syumai/workers/cmd/workers-assets-gen -mode=go -o "$tmp" >/dev/null

for variant in worker worker-diag; do
  tags=()
  [ "$variant" = worker-diag ] && tags=(-tags diag)
  GOOS=js GOARCH=wasm go build "${flags[@]}" "${tags[@]}" -o "$out/$variant/app.wasm" ./worker
  cp "$tmp/wasm_exec.js" "$out/$variant/wasm_exec.js"
  cp worker/entry/worker.mjs "$out/$variant/worker.mjs"
done

# Static assets: assets/ (with its _headers rules), plus every built pack
# version under /v1/pack/<version>/ (immutable once published) and its
# culture files under /v1/culture/<version>/.
rm -rf "$out/assets" && mkdir -p "$out/assets/v1/pack"
cp -R assets/. "$out/assets/"
# The client library (client/), which the demo page at / imports from /client/.
mkdir -p "$out/assets/client/src/picker"
cp client/index.js client/core.js client/picker.js client/index.d.ts client/picker.d.ts "$out/assets/client/"
cp client/src/*.js "$out/assets/client/src/"
cp client/src/picker/*.js "$out/assets/client/src/picker/"
# The dashboard web app at /dashboard/ (dashboard/): its source bundled and
# minified with the pinned libraries of scripts/install-dashboard.sh, so no
# CDN is needed at run time.
if command -v npm >/dev/null; then
  scripts/install-dashboard.sh >/dev/null
fi
esbuild=dashboard/.npm/node_modules/.bin/esbuild
if [ -x "$esbuild" ]; then
  mkdir -p "$out/assets/dashboard"
  cp dashboard/index.html "$out/assets/dashboard/"
  # app.js, and uPlot split into a chunk the charts load when first shown.
  NODE_PATH=dashboard/.npm/node_modules "$esbuild" app=dashboard/src/main.js --bundle --minify --format=esm \
    --splitting --chunk-names='[name]-[hash]' --target=es2020 --log-level=warning --outdir="$out/assets/dashboard"
  "$esbuild" dashboard/app.css --bundle --minify --log-level=warning --outfile="$out/assets/dashboard/app.css"
else
  echo "build: no dashboard: its libraries are missing (scripts/install-dashboard.sh needs npm)"
fi
for dir in packs/dist/*/; do
  version=$(basename "$dir")
  mkdir -p "$out/assets/v1/pack/$version"
  cp "$dir"manifest.json "$dir"pack.*.json "$dir"index.*.bin "$out/assets/v1/pack/$version/"
  cp "$dir"device.*.bin "$out/assets/v1/pack/$version/" 2>/dev/null || true
  cp "$dir"vectors.*.bin "$out/assets/v1/pack/$version/" 2>/dev/null || true
  # Culture files: /v1/culture/<version>/culture.<locale>.json and index.json.
  if [ -d "$dir"culture ]; then
    mkdir -p "$out/assets/v1/culture/$version"
    cp "$dir"culture/*.json "$out/assets/v1/culture/$version/"
  fi
done

# The API reference (OpenAPI 3.1), served at /openapi.json, and its page at
# /docs/: Scalar's standalone bundle from npm (scripts/install-api-tools.sh),
# copied here so the page needs no CDN.
cp docs/openapi.json "$out/assets/openapi.json"
scalar=.apitools/node_modules/@scalar/api-reference/dist/browser/standalone.js
if [ ! -f "$scalar" ] && command -v npm >/dev/null; then
  scripts/install-api-tools.sh >/dev/null
fi
if [ -f "$scalar" ]; then
  cp "$scalar" "$out/assets/docs/scalar.js"
else
  echo "build: npm not found: /docs has no renderer (scripts/install-api-tools.sh)"
fi

# The hosted sets mapping (packs/cmd/setmap), read by /v1/sets/.
mkdir -p "$out/assets/sets"
cp packs/sets/sets.json "$out/assets/sets/"

go build "${flags[@]}" -o "$out/bin/hostsim" ./hostsim/cmd/hostsim

# The local upstream of /v1/sets/ that `hostsim serve` starts with no flags
# (pinned npm packages, installed once; nothing of the artwork is committed).
if command -v npm >/dev/null; then
  scripts/install-sets.sh >/dev/null
else
  echo "build: npm not found: hostsim serve will have no local emoji sets (scripts/install-sets.sh)"
fi

for variant in worker worker-diag; do
  raw=$(stat -c %s "$out/$variant/app.wasm")
  gz=$(gzip -9 -c "$out/$variant/app.wasm" | wc -c)
  echo "build: $variant/app.wasm $raw bytes ($gz gzip)"
done
